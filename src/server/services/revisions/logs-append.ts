import { env } from "@/env";
import type { RevisionLogLevel, RevisionLogStream } from "@/generated/prisma/client";
import { harmlessLine } from "@/lib/log-text";
import { isFullClient, type DbClient } from "@/server/db";

// A revision's build and deploy output. Lines are numbered per revision (seq); callers write
// only what they compose themselves, never secret values. Every line is stored harmless and at
// most HANGAR_LOG_MAX_LINE characters (lib/log-text.ts), whoever wrote it.

/**
 * Appends `lines` to the revision's `stream`, numbered after its last line. Numbering holds the
 * revision's row lock (as an UPDATE of the revision does), so writers in other processes take
 * turns rather than two of them counting from the same last line (the second then failed on
 * the unique number: an interrupt answered 500 while the build's live log or a worker taking
 * the build over appended). In a transaction the lock stays until it ends; on its own the
 * append is a transaction of its own.
 */
export async function appendLogs(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
  lines: string[],
  level: RevisionLogLevel = "INFO",
): Promise<void> {
  if (lines.length === 0) return;
  const stored = lines.map((line) => harmlessLine(line, env.HANGAR_LOG_MAX_LINE));
  // Two statements: under READ COMMITTED the INSERT's snapshot, taken once the lock is held,
  // sees every line the previous holder committed.
  const lock = (client: DbClient) => client.$queryRaw`
    SELECT 1 FROM revisions WHERE id = ${revisionId}::uuid FOR NO KEY UPDATE`;
  const insert = (client: DbClient) => client.$executeRaw`
    INSERT INTO revision_logs (revision_id, seq, stream, level, line)
    SELECT ${revisionId}::uuid,
           COALESCE((SELECT MAX(seq) FROM revision_logs WHERE revision_id = ${revisionId}::uuid), 0) + t.n,
           ${stream}::"RevisionLogStream",
           ${level}::"RevisionLogLevel",
           t.line
    FROM unnest(${stored}::text[]) WITH ORDINALITY AS t(line, n)`;
  if (isFullClient(db)) await db.$transaction([lock(db), insert(db)]);
  else {
    await lock(db);
    await insert(db);
  }
}

/** What a revision's log of `stream` holds: its lines and their bytes (UTF-8). */
export async function storedLogSize(
  db: DbClient,
  revisionId: string,
  stream: RevisionLogStream,
): Promise<{ lines: number; bytes: number }> {
  const [row] = await db.$queryRaw<{ lines: bigint; bytes: bigint }[]>`
    SELECT count(*) AS lines, COALESCE(sum(octet_length(line)), 0)::bigint AS bytes
    FROM revision_logs
    WHERE revision_id = ${revisionId}::uuid AND stream = ${stream}::"RevisionLogStream"`;
  return { lines: Number(row?.lines ?? 0), bytes: Number(row?.bytes ?? 0) };
}
