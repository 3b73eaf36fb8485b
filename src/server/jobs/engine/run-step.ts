import type { RevisionStatus } from "@/generated/prisma/client";
import { userMessageOf } from "../drivers/source";
import { appendLogs } from "@/server/services/revisions/logs-append";
import { failureOf, isTerminal } from "@/schemas/revision-states";
import { buildStep, startBuild } from "./build-step";
import { advance, loadRevision, type EngineContext, type EngineRevision } from "./context";
import { deployStep, startDeploy } from "./deploy-step";
import { sourceStep } from "./source-step";

type Step = (ctx: EngineContext, revision: EngineRevision) => Promise<unknown>;

/** The step each status runs; its result moves the revision on (and queues the next step). */
const STEPS: Partial<Record<RevisionStatus, Step>> = {
  QUEUED: sourceStep,
  AWAITING_BUILD: startBuild,
  BUILDING: buildStep,
  AWAITING_DEPLOY: startDeploy,
  DEPLOYING: deployStep,
};

/**
 * Bookkeeping steps, which wait on no driver (no build, no rollout): the job whose move reached
 * one runs it at once instead of queueing a job for it, sparing a queue round trip.
 */
const RUN_AT_ONCE: ReadonlySet<RevisionStatus> = new Set(["AWAITING_BUILD", "AWAITING_DEPLOY"]);

const streamOf = (status: RevisionStatus) =>
  status === "AWAITING_DEPLOY" || status === "DEPLOYING" ? "deploy" : "build";

export interface Attempt {
  retryCount: number;
  retryLimit: number;
}

/**
 * Runs the step the revision's current status calls for, then on a first attempt the
 * bookkeeping steps its move reached (RUN_AT_ONCE). Every step checks the status it acts on, so
 * a job that runs twice (a retried job of a killed worker) does nothing twice; the job stays
 * active until its last step, so a crash in any of them retries from the revision's status.
 * Unexpected errors are retried by the queue; the last attempt ends the revision in its step's
 * failure. A retried job runs one step, so each step keeps all its retries.
 */
export async function runRevisionStep(
  ctx: EngineContext,
  revisionId: string,
  attempt: Attempt,
): Promise<void> {
  if (attempt.retryCount > 0) return void (await runStep(ctx, revisionId, attempt));
  let next: RevisionStatus | null = null;
  const runsNext = (status: RevisionStatus) => {
    next = RUN_AT_ONCE.has(status) ? status : null;
    return next !== null;
  };
  do {
    next = null;
    await runStep({ ...ctx, runsNext }, revisionId, attempt);
  } while (next);
}

async function runStep(ctx: EngineContext, revisionId: string, attempt: Attempt): Promise<void> {
  const revision = await loadRevision(ctx.db, revisionId);
  if (!revision || isTerminal(revision.status)) return;
  const step = STEPS[revision.status];
  if (!step) return;
  const stream = streamOf(revision.status);
  if (attempt.retryCount > 0) {
    await appendLogs(ctx.db, revision.id, stream, [
      `Resuming ${revision.status} (attempt ${attempt.retryCount + 1})`,
    ]);
  }
  try {
    await step(ctx, revision);
  } catch (error) {
    if (attempt.retryCount < attempt.retryLimit) throw error;
    const failure = failureOf(revision.status);
    if (!failure) throw error;
    const message =
      userMessageOf(error) ?? `Hangar could not finish ${revision.status}; redeploy to try again.`;
    await advance(ctx, revision.id, {
      from: [revision.status],
      to: failure,
      message,
      stream,
      lines: [message],
    });
  }
}
