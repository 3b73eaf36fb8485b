import type { Prisma, RevisionLogStream } from "@/generated/prisma/client";
import { withinBytes } from "@/lib/log-text";
import type { LogEntries, LogQuery } from "@/schemas/deploy-logs";
import { isTerminal } from "@/schemas/revision-states";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { invalidField } from "@/server/errors";
import { findRevisionOf, servedLine } from "./logs-list";

// The deploy client's revision log reads (POST .../build_logs, .../revisions/{id}/deploy_logs): filtered, ordered either
// way, paged by an opaque cursor over the same log store as the other log routes. An answer
// holds at most LOG_ANSWER_BYTES of lines: cut there, it carries a cursor whatever its length.

const encodeCursor = (id: bigint) => Buffer.from(`l:${id}`).toString("base64url");

function decodeCursor(offset: string): bigint {
  const match = /^l:(\d{1,19})$/.exec(Buffer.from(offset, "base64url").toString());
  if (!match)
    throw invalidField(["body", "offset"], "offset must be a next_offset of an earlier answer");
  return BigInt(match[1]!);
}

async function readLogs(
  db: DbClient,
  where: Prisma.RevisionLogWhereInput,
  query: LogQuery,
  finished: () => Promise<boolean>,
): Promise<LogEntries> {
  const cursor = query.offset ? decodeCursor(query.offset) : null;
  const rows = await db.revisionLog.findMany({
    where: {
      ...where,
      ...(cursor !== null ? { id: query.order === "asc" ? { gt: cursor } : { lt: cursor } } : {}),
      ...(query.level ? { level: query.level } : {}),
      ...(query.query ? { line: { contains: query.query, mode: "insensitive" } } : {}),
      ...(query.start_time || query.end_time
        ? {
            createdAt: {
              ...(query.start_time ? { gte: new Date(query.start_time) } : {}),
              ...(query.end_time ? { lte: new Date(query.end_time) } : {}),
            },
          }
        : {}),
    },
    orderBy: { id: query.order },
    take: query.limit,
  });
  const { kept, cut } = withinBytes(
    rows.map((row) => ({
      id: String(row.id),
      timestamp: row.createdAt.toISOString(),
      level: row.level,
      message: servedLine(row.line),
    })),
  );
  const last = kept.at(-1);
  // A short page is the end only once nothing more will be written (descending: always).
  const end =
    !last || (!cut && rows.length < query.limit && (query.order === "desc" || (await finished())));
  return { logs: kept, next_offset: end ? null : encodeCursor(BigInt(last.id)) };
}

/** A revision's build or deploy log (404 for another workspace's revision). */
export async function queryRevisionLogs(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
  stream: RevisionLogStream,
  query: LogQuery,
): Promise<LogEntries> {
  const revision = await findRevisionOf(db, actor, deploymentId, revisionId);
  return readLogs(db, { revisionId: revision.id, stream }, query, async () =>
    isTerminal(
      (
        await db.revision.findUniqueOrThrow({
          where: { id: revision.id },
          select: { status: true },
        })
      ).status,
    ),
  );
}
