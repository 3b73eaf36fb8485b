import type PgBoss from "pg-boss";
import type { Prisma, RevisionLogStream, RevisionStatus } from "@/generated/prisma/client";
import type { Db, DbClient } from "@/server/db";
import type { Drivers } from "../drivers";
import { enqueueRevisionStep } from "@/server/services/revisions/queue";
import { appendLogs } from "@/server/services/revisions/logs-append";
import { IN_FLIGHT_STATUSES, isTerminal } from "@/schemas/revision-states";
import { transition } from "@/server/services/revisions/transition";
import { lockRevisionDeployment } from "@/server/services/deployments/find";
import { queuePreviewStatus } from "@/server/services/previews/commit-status";

/** What the steps run with: the database, the drivers, and the worker's queue for next steps. */
export interface EngineContext {
  db: Db;
  drivers: Drivers;
  boss?: PgBoss;
  /**
   * Asked when a move lands on a status that needs another step: true when the job that made
   * the move runs that step itself (so no job is queued for it).
   */
  runsNext?: (status: RevisionStatus) => boolean;
  /** A revision of the deployment went live: its health is judged again now (jobs/health). */
  onDeployed?: (deploymentId: string) => void;
}

export const revisionInclude = { deployment: true } satisfies Prisma.RevisionInclude;
export type EngineRevision = Prisma.RevisionGetPayload<{ include: typeof revisionInclude }>;

export const loadRevision = (db: DbClient, id: string) =>
  db.revision.findUnique({ where: { id }, include: revisionInclude });

/** The deployment's secret references, loaded only by the steps that render manifests. */
export async function withSecretReferences(db: DbClient, revision: EngineRevision) {
  const secretReferences = await db.secretReference.findMany({
    where: { deploymentId: revision.deploymentId },
    orderBy: { name: "asc" },
  });
  return { ...revision, deployment: { ...revision.deployment, secretReferences } };
}
export type ManifestRevision = Awaited<ReturnType<typeof withSecretReferences>>;

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
  // A move that also writes its deployment takes the deployment's row first, as the services do.
  if (move.also) await lockRevisionDeployment(tx, revisionId);
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
  await queuePreviewStatus(tx, revisionId, move.to, ctx.boss);
  if (!isTerminal(move.to) && !ctx.runsNext?.(move.to))
    await enqueueRevisionStep(tx, { revisionId }, { boss: ctx.boss, status: move.to });
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

/**
 * In one round trip: the deployment's newest revision if newer than this one, and whether
 * another of its revisions is between admission and its end.
 */
export async function admissionOf(
  db: DbClient,
  revision: { id: string; deploymentId: string; number: number },
): Promise<{ newer: { number: number } | null; otherInFlight: boolean }> {
  const [row] = await db.$queryRaw<{ newer: number | null; other_in_flight: boolean }[]>`
    SELECT max(number) FILTER (WHERE number > ${revision.number}) AS newer,
           coalesce(bool_or(id <> ${revision.id}::uuid
             AND status::text = ANY(${IN_FLIGHT_STATUSES}::text[])), false) AS other_in_flight
    FROM revisions WHERE deployment_id = ${revision.deploymentId}::uuid`;
  return {
    newer: row?.newer != null ? { number: row.newer } : null,
    otherInFlight: row?.other_in_flight ?? false,
  };
}

export const supersededMessage = (newer: { number: number }) =>
  `Superseded by revision ${newer.number} before its build started.`;
