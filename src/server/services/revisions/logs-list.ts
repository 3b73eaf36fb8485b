import { env } from "@/env";
import type { RevisionLog } from "@/generated/prisma/client";
import { harmlessLine, withinBytes } from "@/lib/log-text";
import type { Page } from "@/schemas/common";
import type { RevisionLogLine, RevisionLogsQuery } from "@/schemas/revision-logs";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { findDeployment } from "../deployments/find";

// Reading a revision's log: pages, and what the live stream polls. Lines are served harmless
// and cut (lib/log-text.ts) again, as rows stored before that rule may hold anything.

/** A stored line as it is served. */
export const servedLine = (line: string) => harmlessLine(line, env.HANGAR_LOG_MAX_LINE);

export const toLogLine = (row: RevisionLog): RevisionLogLine => ({
  id: Number(row.id),
  stream: row.stream,
  line: servedLine(row.line),
  created_at: row.createdAt.toISOString(),
});

/** The revision (of the actor's workspace) or the contract's 404. */
export async function findRevisionOf(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
) {
  const deployment = await findDeployment(db, actor, deploymentId);
  const revision = await db.revision.findFirst({
    where: { id: revisionId, deploymentId: deployment.id },
    select: { id: true, status: true },
  });
  if (!revision) throw notFound(`Revision ${revisionId} not found.`);
  return revision;
}

/** Lines after a cursor, oldest first. */
export const logLinesAfter = (
  db: DbClient,
  revisionId: string,
  after: number,
  take: number,
  skip = 0,
) =>
  db.revisionLog.findMany({
    where: { revisionId, id: { gt: BigInt(after) } },
    orderBy: { id: "asc" },
    skip,
    take,
  });

/**
 * Oldest first; `after` is a cursor (the last id read), `offset` counts from it. A page stops
 * before `limit` once its lines pass LOG_ANSWER_BYTES; `offset` (or the last id) reads on.
 */
export async function listRevisionLogs(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
  query: RevisionLogsQuery,
): Promise<Page<RevisionLogLine>> {
  const revision = await findRevisionOf(db, actor, deploymentId, revisionId);
  const rows = await logLinesAfter(db, revision.id, query.after, query.limit, query.offset);
  const { kept } = withinBytes(rows.map(toLogLine));
  return { resources: kept, offset: query.offset + kept.length };
}
