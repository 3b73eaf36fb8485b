import type PgBoss from "pg-boss";
import type { Prisma, RevisionLogStream, RevisionStatus } from "@/generated/prisma/client";
import type { Db, DbClient } from "@/server/db";
import type { Drivers } from "../drivers";
import { enqueueRevisionStep } from "@/server/services/revisions/queue";
import { appendLogs } from "@/server/services/revisions/logs-append";
import { IN_FLIGHT_STATUSES, isTerminal } from "@/schemas/revision-states";
import { transition } from "@/server/services/revisions/transition";

/** What the steps run with: the database, the drivers, and the worker's queue for next steps. */
export interface EngineContext {
  db: Db;
  drivers: Drivers;
  boss?: PgBoss;
}

export const revisionInclude = {
  deployment: { include: { secretReferences: { orderBy: { name: "asc" } } } },
} satisfies Prisma.RevisionInclude;
export type EngineRevision = Prisma.RevisionGetPayload<{ include: typeof revisionInclude }>;

export const loadRevision = (db: DbClient, id: string) =>
  db.revision.findUnique({ where: { id }, include: revisionInclude });

export interface Move {
  from: RevisionStatus[];
  to: RevisionStatus;
  message?: string | null;
  /** Columns the step produced, written by the same UPDATE as the status. */
  data?: Prisma.RevisionUpdateManyMutationInput;
  stream: RevisionLogStream;
  lines: string[];
  /** More writes that belong to the move (e.g. the deployment following its revision). */
  also?: (tx: DbClient) => Promise<void>;
}

/**
 * One step's outcome, atomically: the status move, what the step produced, its log lines and
 * the job for the next step. False when the revision had moved on (another worker, a user).
 */
export async function applyMove(
  tx: DbClient,
  ctx: EngineContext,
  revisionId: string,
  move: Move,
): Promise<boolean> {
  const moved = await transition(tx, revisionId, move.from, move.to, move.message, move.data);
  if (!moved) return false;
  // A failure's reason (its message's line) is ERROR, so a log read filtered by level finds it.
  const reason = move.to.endsWith("_FAILED") ? move.lines.lastIndexOf(move.message ?? "") : -1;
  if (reason >= 0) {
    await appendLogs(tx, revisionId, move.stream, move.lines.slice(0, reason));
    await appendLogs(tx, revisionId, move.stream, [move.lines[reason]!], "ERROR");
    await appendLogs(tx, revisionId, move.stream, move.lines.slice(reason + 1));
  } else {
    await appendLogs(tx, revisionId, move.stream, move.lines);
  }
  await move.also?.(tx);
  if (!isTerminal(move.to)) await enqueueRevisionStep(tx, { revisionId }, { boss: ctx.boss });
  return true;
}

export const advance = (ctx: EngineContext, revisionId: string, move: Move) =>
  ctx.db.$transaction((tx) => applyMove(tx, ctx, revisionId, move));

/** Tries the revision again shortly: another revision of its deployment is being built. */
export const retryLater = (db: DbClient, ctx: EngineContext, revisionId: string) =>
  enqueueRevisionStep(db, { revisionId }, { startAfterSeconds: 1, boss: ctx.boss });

/** The deployment's newest revision if it is newer than this one. */
export const newerRevision = (db: DbClient, revision: { deploymentId: string; number: number }) =>
  db.revision.findFirst({
    where: { deploymentId: revision.deploymentId, number: { gt: revision.number } },
    orderBy: { number: "desc" },
    select: { number: true },
  });

/** Another revision of the deployment between admission and its end. */
export const otherInFlight = (db: DbClient, revision: { id: string; deploymentId: string }) =>
  db.revision.findFirst({
    where: {
      deploymentId: revision.deploymentId,
      id: { not: revision.id },
      status: { in: IN_FLIGHT_STATUSES },
    },
    select: { number: true },
  });

export const supersededMessage = (newer: { number: number }) =>
  `Superseded by revision ${newer.number} before its build started.`;
