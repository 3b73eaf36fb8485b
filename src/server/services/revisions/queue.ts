import PgBoss from "pg-boss";
import { z } from "zod";
import { env } from "@/env";
import type { RevisionStatus } from "@/generated/prisma/enums";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { notifyChannel } from "@/server/notify-channel";

// The durable job queue: pg-boss in PostgreSQL (its own schema, `pgboss`, created by pg-boss).
// Jobs are sent inside the transaction that makes them necessary, so a status change and the
// job that continues from it land together or not at all. pg-boss's schema must exist first:
// the web server (instrumentation) and every worker ensure it at start.

export const QUEUES = {
  /** Runs one step of a revision (the step follows from its status). */
  revisionStep: "revision-step",
  /** Runs a revision's build (BUILDING): slots of their own, so builds never hold up deploys. */
  build: "revision-build",
  /** Tears a deployment's runtime down, then removes the deployment. */
  teardown: "deployment-teardown",
  /** Reports a preview revision's status to its pull request's head commit. */
  previewStatus: "preview-status",
  /** Deletes previews past their ttl_hours (sent every HANGAR_PREVIEW_SWEEP_SECONDS). */
  previewExpiry: "preview-expiry",
} as const;

export const revisionStepJob = z.object({ revisionId: z.uuid() });
export const teardownJob = z.object({ deploymentId: z.uuid() });
export type RevisionStepJob = z.infer<typeof revisionStepJob>;
export type TeardownJob = z.infer<typeof teardownJob>;
/**
 * Sends a queued commit status and any unsent ones of its commit, oldest first (the status it
 * reports is recorded with it: previews/status-outbox.ts). A job queued before the outbox
 * (`revisionId`) has nothing recorded to send.
 */
export const previewStatusJob = z.union([
  z.object({ statusId: z.uuid() }),
  z.object({ revisionId: z.uuid() }).transform(() => ({ statusId: null })),
]);

/**
 * Wakes idle workers when a job is sent (NOTIFY, delivered at commit; the key is the queue's
 * name), so it starts at once instead of at their next poll. Polling stays the fallback.
 */
export const jobWake = notifyChannel("hangar_job_wake", "job wake listener");

/** Retries cover crashes (an expired job is retried) and passing faults (the database away). */
export const RETRY_LIMIT = 5;

/**
 * A queue's settings. A commit status waits longer between tries (doubling from 1–2 s to 16–32 s,
 * pg-boss's backoff): a code host down for a while still hears every state, in order, once it
 * answers again.
 */
const settingsOf = (name: string) => ({
  name,
  retryLimit: RETRY_LIMIT,
  retryDelay: 1,
  retryBackoff: name === QUEUES.previewStatus,
  expireInSeconds: expiryOf(name),
});

export interface BossOptions {
  /** Workers run maintenance (expiring jobs of killed workers); senders need not. */
  supervise: boolean;
  poolSize?: number;
}

/**
 * A job running longer is presumed dead. A build may take its whole time limit, then what any
 * step may (stopping it, recording its end, the deploy step's bookkeeping).
 */
const expiryOf = (name: string) =>
  name === QUEUES.build
    ? env.HANGAR_BUILD_TIMEOUT_SECONDS + env.HANGAR_JOB_EXPIRE_SECONDS
    : env.HANGAR_JOB_EXPIRE_SECONDS;

export async function startBoss(url: string, options: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    max: options.poolSize ?? 2,
    supervise: options.supervise,
    schedule: false,
    maintenanceIntervalSeconds: env.HANGAR_QUEUE_MAINTENANCE_SECONDS,
  });
  boss.on("error", (error) => log.error("job queue error", describeError(error)));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, settingsOf(name));
    // Workers own the queue's settings: the newest worker's configuration applies.
    if (options.supervise) await boss.updateQueue(name, settingsOf(name));
  }
  return boss;
}

/** Creates pg-boss's schema and our queues if missing: run once at start, outside transactions. */
export async function ensureQueues(url: string): Promise<void> {
  const boss = await startBoss(url, { supervise: false, poolSize: 1 });
  await boss.stop({ graceful: false, wait: true });
}

const globalForBoss = globalThis as unknown as { hangarSender?: PgBoss };

/**
 * Builds pg-boss's SQL for jobs sent through a caller's transaction. Never started, so it holds
 * no connection: starting one inside a transaction would wait on it (the embedded database
 * runs one transaction at a time).
 */
function sender(): PgBoss {
  globalForBoss.hangarSender ??= new PgBoss({
    connectionString: env.DATABASE_URL ?? "postgres://unused",
  });
  return globalForBoss.hangarSender;
}

/** pg-boss runs its SQL through the caller's transaction (Prisma), so the job commits with it. */
export function inTransaction(tx: DbClient): PgBoss.Db {
  return {
    async executeSql(text, values) {
      // Objects are JSON (job data); arrays are PostgreSQL arrays (job ids).
      const args = values.map((v) =>
        v === undefined
          ? null
          : v !== null && typeof v === "object" && !Array.isArray(v)
            ? JSON.stringify(v)
            : v,
      );
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...args) };
    },
  };
}

async function send(
  tx: DbClient,
  name: string,
  data: object,
  options: { startAfterSeconds?: number; boss?: PgBoss; wake?: boolean } = {},
): Promise<void> {
  const boss = options.boss ?? sender();
  await boss.send(name, data, {
    db: inTransaction(tx),
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
  });
  // A worker's next step is fetched by the slot that sent it as soon as it is free; a job
  // from elsewhere (the web server), or for a queue no slot of the sender serves next (`wake`),
  // wakes the workers. A delayed job waits for a poll anyway.
  if ((options.wake || !options.boss) && !options.startAfterSeconds) await jobWake.notify(tx, name);
}

/** The queue of the step a status calls for: builds have their own. */
export const queueOf = (status: RevisionStatus | undefined) =>
  status === "BUILDING" ? QUEUES.build : QUEUES.revisionStep;

/** Queues the next step of a revision (the step of `status`), inside the caller's transaction. */
export const enqueueRevisionStep = (
  tx: DbClient,
  job: RevisionStepJob,
  options?: { startAfterSeconds?: number; boss?: PgBoss; status?: RevisionStatus },
) => send(tx, queueOf(options?.status), job, options);

/** Queues a deployment's teardown, inside the caller's transaction. */
export const enqueueTeardown = (tx: DbClient, job: TeardownJob, options?: { boss?: PgBoss }) =>
  send(tx, QUEUES.teardown, job, options);

/**
 * Queues the sending of a recorded commit status, inside the caller's transaction. Always wakes
 * the status slots: a worker's revision step sends it, and no slot of its own takes it next.
 */
export const enqueuePreviewStatus = (tx: DbClient, statusId: string, options?: { boss?: PgBoss }) =>
  send(tx, QUEUES.previewStatus, { statusId }, { ...options, wake: true });
