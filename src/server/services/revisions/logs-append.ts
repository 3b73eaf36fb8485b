import type { RevisionLogLevel, RevisionLogStream } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";

// A revision's build and deploy output. Lines are numbered per revision (seq); callers write
// only what they compose themselves, never secret values.

export async function appendLogs(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
  lines: string[],
  level: RevisionLogLevel = "INFO",
): Promise<void> {
  if (lines.length === 0) return;
  await db.$executeRaw`
    INSERT INTO revision_logs (revision_id, seq, stream, level, line)
    SELECT ${revisionId}::uuid,
           COALESCE((SELECT MAX(seq) FROM revision_logs WHERE revision_id = ${revisionId}::uuid), 0) + t.n,
           ${stream}::"RevisionLogStream",
           ${level}::"RevisionLogLevel",
           t.line
    FROM unnest(${lines}::text[]) WITH ORDINALITY AS t(line, n)`;
}
