import { env } from "@/env";
import { createDb } from "@/server/db";
import { describeError, log } from "@/server/log";
import { driversFromEnv, type Drivers } from "./drivers";
import { runRevisionStep } from "./engine/run-step";
import { QUEUES, revisionStepJob, startBoss, teardownJob } from "@/server/services/revisions/queue";
import { runTeardown } from "./teardown";
import { listenForJobs } from "./wake";

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * A worker: runs revision steps and teardowns from the queue. Any number of workers, in any
 * number of processes, share one queue; a killed worker's job expires and another retries it.
 */
export async function startWorker(
  url: string,
  options: { concurrency?: number; drivers?: Drivers } = {},
): Promise<RunningWorker> {
  const concurrency = options.concurrency ?? env.HANGAR_WORKER_CONCURRENCY;
  const db = createDb(url, concurrency + 2);
  const boss = await startBoss(url, { supervise: true, poolSize: concurrency + 2 });
  const ctx = { db, boss, drivers: options.drivers ?? (await driversFromEnv()) };
  const work = {
    batchSize: 1,
    includeMetadata: true,
    pollingIntervalSeconds: env.HANGAR_QUEUE_POLL_SECONDS,
  } as const;

  // Slots are pg-boss workers of one job each. An idle slot sleeps until its next poll unless
  // woken: by a job sent from elsewhere, by a sibling that found work (there may be more), or
  // by itself when it finishes one (it fetches again at once).
  const slots: { id?: string; busy: boolean }[] = [];
  const wakeIdleSlot = () => {
    const idle = slots.find((slot) => !slot.busy && slot.id);
    if (idle) boss.notifyWorker(idle.id!);
  };
  for (let i = 0; i < concurrency; i++) {
    const slot: { id?: string; busy: boolean } = { busy: false };
    slots.push(slot);
    slot.id = await boss.work(QUEUES.revisionStep, work, async ([job]) => {
      slot.busy = true;
      wakeIdleSlot();
      const { revisionId } = revisionStepJob.parse(job!.data);
      try {
        await runRevisionStep(ctx, revisionId, job!);
      } catch (error) {
        log.warn("revision step failed, will retry", {
          revision_id: revisionId,
          ...describeError(error),
        });
        throw error;
      } finally {
        slot.busy = false;
      }
      if (slot.id) boss.notifyWorker(slot.id);
    });
  }
  const teardownId = await boss.work(QUEUES.teardown, work, async ([job]) => {
    const { deploymentId } = teardownJob.parse(job!.data);
    const { deleted } = await runTeardown(ctx, deploymentId);
    if (deleted) log.info("deployment deleted", { deployment_id: deploymentId });
  });
  const retryMs = env.HANGAR_QUEUE_POLL_SECONDS * 1000;
  const listeners = await Promise.all([
    listenForJobs(QUEUES.revisionStep, wakeIdleSlot, retryMs),
    listenForJobs(QUEUES.teardown, () => boss.notifyWorker(teardownId), retryMs),
  ]);
  log.info("worker started", { concurrency, deployer: ctx.drivers.deployer.name });

  return {
    async stop() {
      await Promise.all(listeners.map((listener) => listener.stop()));
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await db.$disconnect();
    },
  };
}
