import { setTimeout as sleep } from "node:timers/promises";
import type PgBoss from "pg-boss";
import type { Db } from "@/server/db";
import { describeError, log } from "@/server/log";
import { inTransaction, jobWake, QUEUES, revisionStepJob } from "@/server/services/revisions/queue";
import { fetchBuild, type BuildJob } from "./build-fetch";

// A worker's build slots (HANGAR_BUILD_CONCURRENCY): each loops fetching a build fairly
// (build-fetch.ts), runs it, and completes or fails it with pg-boss's own complete and fail, as a
// pg-boss worker would, so retries, expiry and the lifeline's hand-backs work as for any queue.

export interface BuildSlots {
  /** Wakes an idle slot to fetch now (a build was queued, or a build's end admits another). */
  wake(): void;
  /**
   * Stops fetching; waits up to `graceMs` for the builds running, then hands the rest back to the
   * queue (retried by any worker) and answers their revisions.
   */
  stop(graceMs: number): Promise<string[]>;
}

interface Run {
  job: BuildJob;
  /** Handed back by stop(): its outcome, whenever it comes, is no longer this worker's. */
  handedBack: boolean;
}

interface Slot {
  run?: Run;
  /** Woken while it fetched: it fetches again instead of sleeping. */
  woken: boolean;
  nap?: AbortController;
}

export interface BuildSlotOptions {
  count: number;
  workspaceConcurrency: number;
  pollMs: number;
  /** Runs the build (the worker's handler); a throw fails the job (a retry). */
  run: (job: BuildJob) => Promise<void>;
  /** Called after each build ends (its next step waits in another queue). */
  onFinished: () => void;
}

/** As pg-boss does: a handler still running past the job's expiry is given up (the job fails). */
async function withinExpiry(run: Promise<void>, seconds: number): Promise<void> {
  const expired = new AbortController();
  try {
    await Promise.race([
      run,
      sleep(Math.max(1, seconds) * 1000, undefined, { signal: expired.signal }).then(() => {
        throw new Error(`handler execution exceeded ${Math.max(1, seconds)} s`);
      }),
    ]);
  } finally {
    expired.abort();
  }
}

export function serveBuilds(ctx: { db: Db; boss: PgBoss }, options: BuildSlotOptions): BuildSlots {
  const db = inTransaction(ctx.db);
  const slots: Slot[] = Array.from({ length: options.count }, () => ({ woken: false }));
  let stopping = false;

  const wake = () => {
    const idle = slots.find((slot) => !slot.run);
    if (!idle) return;
    idle.woken = true;
    idle.nap?.abort();
  };

  // pg-boss's complete and fail through our own pool: its own closes at stop, before the builds
  // finishing in the grace are settled.
  const settle = async (run: Run, error: unknown) => {
    if (run.handedBack) return;
    try {
      if (!error) await ctx.boss.complete(QUEUES.build, run.job.id, {}, { db });
      else {
        const data = error instanceof Error ? error : { message: String(error) };
        await ctx.boss.fail(QUEUES.build, run.job.id, data, { db });
      }
    } catch (settleError) {
      // Left active: the lifeline or the job's expiry hands it back.
      log.warn("build job could not be settled", {
        job_id: run.job.id,
        ...describeError(settleError),
      });
    }
  };

  const runBuild = async (slot: Slot, job: BuildJob) => {
    const run: Run = { job, handedBack: false };
    slot.run = run;
    // There may be more to admit: a sibling looks.
    wake();
    let failure: unknown = null;
    try {
      await withinExpiry(options.run(job), job.expireInSeconds);
    } catch (error) {
      failure = error;
    }
    await settle(run, failure);
    slot.run = undefined;
    options.onFinished();
    // Its end may admit another workspace's build or this one's next: this slot fetches again
    // at once, and the other workers' idle slots are woken.
    await jobWake.notify(ctx.db, QUEUES.build).catch(() => undefined);
  };

  const loop = async (slot: Slot) => {
    while (!stopping) {
      slot.woken = false;
      const job = await fetchBuild(ctx.db, options.workspaceConcurrency).catch((error) => {
        log.warn("build slot could not fetch", describeError(error));
        return null;
      });
      if (job) {
        await runBuild(slot, job);
        continue;
      }
      if (slot.woken || stopping) continue;
      slot.nap = new AbortController();
      await sleep(options.pollMs, undefined, { signal: slot.nap.signal }).catch(() => undefined);
      slot.nap = undefined;
    }
  };
  const loops = slots.map(loop);

  return {
    wake,
    async stop(graceMs) {
      stopping = true;
      for (const slot of slots) slot.nap?.abort();
      const grace = new AbortController();
      await Promise.race([
        Promise.all(loops),
        sleep(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
      ]);
      grace.abort();
      const left = slots.flatMap((slot) => (slot.run ? [slot.run] : []));
      for (const run of left) {
        run.handedBack = true;
        await ctx.boss
          .fail(
            QUEUES.build,
            run.job.id,
            { message: "the worker stopped while running it" },
            { db },
          )
          .catch((error) => log.warn("build could not be handed back", describeError(error)));
      }
      return left.flatMap((run) => {
        const parsed = revisionStepJob.safeParse(run.job.data);
        return parsed.success ? [parsed.data.revisionId] : [];
      });
    },
  };
}
