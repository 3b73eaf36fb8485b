import { env } from "@/env";
import { createDb } from "@/server/db";
import { describeError, log } from "@/server/log";
import { driversFromEnv, type Drivers } from "./drivers";
import type { EngineContext } from "./engine/context";
import { runRevisionStep } from "./engine/run-step";
import { QUEUES, revisionStepJob, startBoss, teardownJob } from "@/server/services/revisions/queue";
import type { BuildJob } from "./build-fetch";
import { serveBuilds } from "./build-slots";
import { servePreviews } from "./previews";
import { serveTracingRetention } from "./tracing-retention";
import { runTeardown } from "./teardown";
import { logStep, startLifeline } from "./lifeline";
import { listenForJobs } from "./wake";

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * A worker: runs revision steps, builds and teardowns from the queue. Any number of workers, in
 * any number of processes, share one queue; a killed worker's jobs are handed back by another
 * worker's lifeline within seconds (lifeline.ts). Builds have slots of their own
 * (HANGAR_BUILD_CONCURRENCY), so a long build never holds up other revisions' steps, and take
 * builds fairly between workspaces, at most HANGAR_BUILD_WORKSPACE_CONCURRENCY of one workspace
 * across every worker (build-slots.ts, build-fetch.ts).
 */
/**
 * The live health watch of the cluster deployments are applied to (jobs/health), when this
 * worker deploys to one: HANGAR_KUBECONFIG names it. Dry run: nothing runs, nothing to watch.
 */
async function startHealth(ctx: EngineContext) {
  if (!env.HANGAR_KUBECONFIG || ctx.drivers.deployer.runtime !== "kubernetes") return null;
  const { loadKubeconfig } = await import("./drivers/kubernetes");
  const { startHealthWatch } = await import("./health/watch");
  const { recordRuntimeObservation } = await import("@/server/services/runtime/state");
  const { watchedDeployments } = await import("@/server/services/runtime/watched");
  const sink = {
    targets: (ids?: string[]) => watchedDeployments(ctx.db, ids),
    record: async (id: string, observation: Parameters<typeof recordRuntimeObservation>[3]) =>
      void (await recordRuntimeObservation(ctx.db, id, "kubernetes", observation)),
  };
  const watch = startHealthWatch(loadKubeconfig(env.HANGAR_KUBECONFIG), sink, {
    settleMs: env.HANGAR_HEALTH_SETTLE_MS,
    resyncMs: env.HANGAR_HEALTH_RESYNC_SECONDS * 1000,
  });
  ctx.onDeployed = (deploymentId) => watch.touch(deploymentId);
  return watch;
}

export async function startWorker(
  url: string,
  options: {
    concurrency?: number;
    buildConcurrency?: number;
    drivers?: Drivers;
    /** The worker's own database session ended: by default the process exits (to be restarted). */
    onLost?: (error: Error) => void;
  } = {},
): Promise<RunningWorker> {
  const concurrency = options.concurrency ?? env.HANGAR_WORKER_CONCURRENCY;
  const buildConcurrency = options.buildConcurrency ?? env.HANGAR_BUILD_CONCURRENCY;
  // A connection per slot, one for each build's status watch, and two to spare.
  const poolSize = concurrency + 2 * buildConcurrency + 2;
  const db = createDb(url, poolSize);
  const boss = await startBoss(url, { supervise: true, poolSize });
  const ctx = { db, boss, drivers: options.drivers ?? (await driversFromEnv()) };
  // Registered (its advisory lock held) before it takes any job; its first round hands back the
  // jobs of workers that stopped, such as the one this process may replace.
  const lifeline = await startLifeline(url, ctx, {
    intervalMs: env.HANGAR_LIFELINE_SECONDS * 1000,
    onLost: options.onLost ?? (() => process.exit(1)),
  });
  const health = await startHealth(ctx);
  const work = {
    batchSize: 1,
    includeMetadata: true,
    pollingIntervalSeconds: env.HANGAR_QUEUE_POLL_SECONDS,
  } as const;

  // Revision-step slots are pg-boss workers of one job each. An idle slot sleeps until its next
  // poll unless woken: by a job sent from elsewhere, by a sibling that found work (there may be
  // more), or by itself when it finishes one (it fetches again at once). A step's next step may
  // be in the other revision queue (a build after its source step, a deploy after its build), so
  // a finished job also wakes an idle slot there. Build slots are our own (build-slots.ts): they
  // fetch fairly between workspaces, and wake the same way.
  type Slot = { id?: string; busy: boolean; revisionId?: string };
  const stepSlots: Slot[] = [];
  const wakeIdleStepSlot = () => {
    const idle = stepSlots.find((slot) => !slot.busy && slot.id);
    if (idle) boss.notifyWorker(idle.id!);
  };
  const runJob = async (job: Omit<BuildJob, "expireInSeconds">) => {
    const { revisionId } = revisionStepJob.parse(job.data);
    try {
      await lifeline.claim(job);
      await runRevisionStep(ctx, revisionId, job);
    } catch (error) {
      log.warn("revision step failed, will retry", {
        revision_id: revisionId,
        ...describeError(error),
      });
      throw error;
    }
  };
  const builds = serveBuilds(ctx, {
    count: buildConcurrency,
    workspaceConcurrency: env.HANGAR_BUILD_WORKSPACE_CONCURRENCY,
    pollMs: env.HANGAR_QUEUE_POLL_SECONDS * 1000,
    run: runJob,
    onFinished: wakeIdleStepSlot,
  });
  for (let i = 0; i < concurrency; i++) {
    const slot: Slot = { busy: false };
    stepSlots.push(slot);
    slot.id = await boss.work(QUEUES.revisionStep, work, async ([job]) => {
      slot.busy = true;
      wakeIdleStepSlot();
      slot.revisionId = revisionStepJob.parse(job!.data).revisionId;
      try {
        await runJob(job!);
      } finally {
        slot.busy = false;
      }
      if (slot.id) boss.notifyWorker(slot.id);
      builds.wake();
    });
  }
  const teardownId = await boss.work(QUEUES.teardown, work, async ([job]) => {
    await lifeline.claim(job!);
    const { deploymentId } = teardownJob.parse(job!.data);
    const { deleted } = await runTeardown(ctx, deploymentId);
    if (deleted) log.info("deployment deleted", { deployment_id: deploymentId });
  });
  const previews = await servePreviews(ctx, work);
  const tracing = serveTracingRetention(db);
  const retryMs = env.HANGAR_QUEUE_POLL_SECONDS * 1000;
  const listeners = await Promise.all([
    listenForJobs(QUEUES.revisionStep, wakeIdleStepSlot, retryMs),
    listenForJobs(QUEUES.build, builds.wake, retryMs),
    listenForJobs(QUEUES.teardown, () => boss.notifyWorker(teardownId), retryMs),
    listenForJobs(QUEUES.previewStatus, () => boss.notifyWorker(previews.statusId), retryMs),
  ]);
  log.info("worker started", {
    concurrency,
    build_concurrency: buildConcurrency,
    build_workspace_concurrency: env.HANGAR_BUILD_WORKSPACE_CONCURRENCY,
    deployer: ctx.drivers.deployer.name,
    builder: ctx.drivers.builder.imageBuilder ?? "dry_run",
    health_watch: health ? "kubernetes" : "off",
  });

  return {
    async stop() {
      previews.stop();
      tracing.stop();
      health?.stop();
      await Promise.all(listeners.map((listener) => listener.stop()));
      // Steps still running after 10 s are handed back to the queue (retried at once elsewhere).
      const [, buildsHandedBack] = await Promise.all([
        boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
        builds.stop(10_000),
      ]);
      const handedBack = [
        ...stepSlots.filter((slot) => slot.busy && slot.revisionId).map((s) => s.revisionId!),
        ...buildsHandedBack,
      ];
      for (const revisionId of handedBack)
        await logStep(
          db,
          revisionId,
          (status) =>
            `Handed back: the worker stopped during ${status}; the next worker resumes it.`,
        ).catch(() => undefined);
      await lifeline.stop();
      await db.$disconnect();
    },
  };
}
