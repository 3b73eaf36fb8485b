import { randomUUID } from "node:crypto";
import os from "node:os";
import type PgBoss from "pg-boss";
import pg from "pg";
import type { Db, DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { appendLogs } from "@/server/services/revisions/logs-append";
import { inTransaction, jobWake, QUEUES } from "@/server/services/revisions/queue";
import { LOCK_NAMESPACE, lockHeld } from "@/server/services/workers";

// Worker liveness, as GoodJob and Que do it: each worker process registers in `workers` and
// holds a session-level advisory lock on its lock_key, on a connection of its own, for as long as
// it lives. When the process dies its session ends and PostgreSQL releases the lock at once. Each
// job a worker runs is recorded in `worker_jobs`; every worker's lifeline looks every few
// seconds for registered workers whose lock nobody holds, hands their active jobs back to the
// queue (retried at once, by pg-boss's own fail, in one transaction) and removes them. A long
// step of a live worker is never taken over: its lock is held however long the step takes.

/** Revision steps whose log is the deploy stream; the others write to the build stream. */
const DEPLOY_STATUSES = new Set(["AWAITING_DEPLOY", "DEPLOYING"]);

export interface Lifeline {
  workerId: string;
  /**
   * Records that this worker runs the job (before running it). Throws when the job was handed
   * back meanwhile (it had stayed unrecorded too long): the worker must not run it then.
   */
  claim(job: { id: string; name: string; retryCount?: number }): Promise<void>;
  /** Resolves once the round in progress, if any (the first starts at once), has finished. */
  idle(): Promise<void>;
  /** Stops the loop and removes the worker's registration (its jobs are finished or handed back). */
  stop(): Promise<void>;
}

export interface Rescued {
  jobId: string;
  queue: string;
  workerId: string;
}

/**
 * Registers this worker and starts its lifeline loop (the first round at once). `onLost` is
 * called if the worker's own session ends under it: its jobs may then be handed to others, so it
 * must stop running them.
 */
export async function startLifeline(
  url: string,
  ctx: { db: Db; boss: PgBoss },
  options: { intervalMs: number; onLost: (error: Error) => void },
): Promise<Lifeline> {
  const workerId = randomUUID();
  // A dead peer host's session is noticed by TCP keepalives within about 10 s; a killed process's
  // at once. The session must never be ended for idling.
  const session = new pg.Client({
    connectionString: url,
    keepAlive: true,
    options:
      "-c idle_session_timeout=0 -c idle_in_transaction_session_timeout=0 " +
      "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3",
  });
  let stopping = false;
  const lost = (error: Error) => {
    if (stopping) return;
    stopping = true;
    log.error("worker lost its database session", describeError(error));
    options.onLost(error);
  };
  // One query at a time on the session (the loop's and the slots' claims).
  let chain: Promise<unknown> = Promise.resolve();
  const query = (text: string, values: unknown[]) => {
    const result = chain.then(() => session.query(text, values));
    chain = result.catch(() => undefined);
    return result;
  };
  session.on("error", lost);
  session.on("end", () => lost(new Error("the worker's database session ended")));
  await session.connect();
  // One statement: the lock is held before the row is visible to anyone.
  await session.query(
    `WITH w AS (INSERT INTO workers (id, pid, host) VALUES ($1, $2, $3) RETURNING lock_key)
     SELECT pg_advisory_lock($4::int, w.lock_key) FROM w`,
    [workerId, process.pid, os.hostname(), LOCK_NAMESPACE],
  );

  const round = async () => {
    try {
      await query(`UPDATE workers SET last_seen = now() WHERE id = $1`, [workerId]);
      // Our records of jobs that ended (completed, failed, or handed back and rerun elsewhere).
      await query(
        `DELETE FROM worker_jobs wj WHERE wj.worker_id = $1 AND NOT EXISTS (
           SELECT 1 FROM pgboss.job j WHERE j.name = wj.queue AND j.id = wj.job_id
             AND j.state = 'active' AND j.started_on <= wj.started_at)`,
        [workerId],
      );
      await rescueOrphans(ctx);
      await rescueUnrecorded(ctx);
    } catch (error) {
      if (!stopping) log.warn("worker lifeline round failed", describeError(error));
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = round();
  const schedule = () => {
    timer = setTimeout(() => {
      running = round().finally(() => {
        if (!stopping) schedule();
      });
    }, options.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    workerId,
    async claim(job) {
      // Only while the job is still this run of it (active, the retry count it was fetched
      // with): the row lock waits for a lifeline handing it back, and then finds it gone.
      const claimed = await query(
        `INSERT INTO worker_jobs (job_id, queue, worker_id)
         SELECT $1, $2, $3 FROM pgboss.job j
         WHERE j.name = $2 AND j.id = $1 AND j.state = 'active'
           AND ($4::int IS NULL OR j.retry_count = $4::int)
         FOR SHARE OF j
         ON CONFLICT (job_id) DO UPDATE
           SET queue = excluded.queue, worker_id = excluded.worker_id, started_at = now()`,
        [job.id, job.name, workerId, job.retryCount ?? null],
      );
      if (claimed.rowCount === 0)
        throw new Error(`job ${job.id} was handed back before this worker recorded it`);
    },
    async idle() {
      await running.catch(() => undefined);
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
      await query(`DELETE FROM workers WHERE id = $1`, [workerId]).catch(() => undefined);
      await session.end().catch(() => undefined);
    },
  };
}

/**
 * Hands back to the queue every active job of a registered worker whose advisory lock nobody
 * holds, and removes those workers: one transaction, so a job is handed back once, by one
 * lifeline. A job counts only if it started before the worker recorded it (the record is that
 * run's, not an earlier attempt's). Returns what was handed back.
 */
export async function rescueOrphans(ctx: { db: Db; boss: PgBoss }): Promise<Rescued[]> {
  return ctx.db.$transaction(async (tx) => {
    const dead = await tx.$queryRaw<{ id: string; pid: number; host: string }[]>`
      SELECT w.id::text, w.pid, w.host FROM workers w
      WHERE NOT ${lockHeld}
      FOR UPDATE SKIP LOCKED`;
    if (dead.length === 0) return [];
    const ids = dead.map((w) => w.id);
    const orphans = await tx.$queryRaw<
      { job_id: string; queue: string; worker_id: string; data: { revisionId?: string } }[]
    >`
      SELECT wj.job_id::text, wj.queue, wj.worker_id::text, j.data FROM worker_jobs wj
      JOIN pgboss.job j ON j.name = wj.queue AND j.id = wj.job_id
      WHERE wj.worker_id = ANY(${ids}::uuid[]) AND j.state = 'active'
        AND j.started_on <= wj.started_at
      FOR UPDATE OF j`;
    for (const orphan of orphans) {
      const worker = dead.find((w) => w.id === orphan.worker_id)!;
      await handBack(ctx, tx, orphan, {
        reason: `worker ${worker.pid} on ${worker.host} stopped while running it`,
        line: (status) =>
          `Resumed after its worker stopped: worker ${worker.pid} on ${worker.host} ended ` +
          `during ${status}; another worker takes the step over now.`,
        logged: { worker_pid: worker.pid, worker_host: worker.host },
      });
    }
    await tx.$executeRaw`DELETE FROM workers WHERE id = ANY(${ids}::uuid[])`;
    return orphans.map((o) => ({ jobId: o.job_id, queue: o.queue, workerId: o.worker_id }));
  });
}

/** Jobs a worker records before it runs them (the others are short and left to expiry). */
const RECORDED_QUEUES: string[] = [QUEUES.revisionStep, QUEUES.build, QUEUES.teardown];

/** How long an active job may stay unrecorded before it counts as its worker's loss. */
export const UNRECORDED_GRACE_SECONDS = 10;

/**
 * Hands back active jobs that no worker recorded within the grace: a worker killed between
 * taking a job and recording it (a few milliseconds, but a whole machine's kill can land there).
 * A claim arriving meanwhile waits for this transaction's row lock and then finds the job gone,
 * so its worker does not run it; a claim that committed while this one waited is seen by the
 * second look.
 */
export async function rescueUnrecorded(
  ctx: { db: Db; boss: PgBoss },
  graceSeconds = UNRECORDED_GRACE_SECONDS,
): Promise<Rescued[]> {
  return ctx.db.$transaction(async (tx) => {
    const candidates = await tx.$queryRaw<
      { job_id: string; queue: string; data: { revisionId?: string } }[]
    >`
      SELECT j.id::text AS job_id, j.name AS queue, j.data FROM pgboss.job j
      WHERE j.name = ANY(${RECORDED_QUEUES}::text[]) AND j.state = 'active'
        AND j.started_on < now() - make_interval(secs => ${graceSeconds}::int)
        AND NOT EXISTS (SELECT 1 FROM worker_jobs wj
                        WHERE wj.job_id = j.id AND wj.started_at >= j.started_on)
      FOR UPDATE OF j SKIP LOCKED`;
    if (candidates.length === 0) return [];
    const recorded = new Set(
      (
        await tx.$queryRaw<{ job_id: string }[]>`
          SELECT wj.job_id::text FROM worker_jobs wj
          JOIN pgboss.job j ON j.name = wj.queue AND j.id = wj.job_id
          WHERE wj.job_id = ANY(${candidates.map((c) => c.job_id)}::uuid[])
            AND wj.started_at >= j.started_on`
      ).map((r) => r.job_id),
    );
    const lost = candidates.filter((c) => !recorded.has(c.job_id));
    for (const job of lost)
      await handBack(ctx, tx, job, {
        reason: "its worker stopped before it recorded the job",
        line: (status) =>
          `Resumed after its worker stopped: the worker that took the step (during ${status}) ` +
          `stopped before it recorded it; another worker takes the step over now.`,
        logged: {},
      });
    return lost.map((j) => ({ jobId: j.job_id, queue: j.queue, workerId: "" }));
  });
}

/** One job back to the queue, due at once, with a line in its revision's log. */
async function handBack(
  ctx: { boss: PgBoss },
  tx: DbClient,
  job: { job_id: string; queue: string; data: { revisionId?: string } },
  how: { reason: string; line: (status: string) => string; logged: Record<string, unknown> },
) {
  await ctx.boss.fail(job.queue, job.job_id, { message: how.reason }, { db: inTransaction(tx) });
  // Retried at once rather than after the queue's retry delay.
  await tx.$executeRaw`
    UPDATE pgboss.job SET start_after = now()
    WHERE name = ${job.queue} AND id = ${job.job_id}::uuid AND state = 'retry'`;
  await jobWake.notify(tx, job.queue);
  const revisionId = job.queue === QUEUES.teardown ? undefined : job.data.revisionId;
  if (revisionId) await logStep(tx, revisionId, how.line);
  log.warn("job handed back: its worker stopped", {
    job_id: job.job_id,
    queue: job.queue,
    ...how.logged,
    ...(revisionId ? { revision_id: revisionId } : {}),
  });
}

/** Appends a line to the log of the step the revision is in (deploy or build stream). */
export async function logStep(
  db: DbClient,
  revisionId: string,
  line: (status: string) => string,
): Promise<void> {
  const [revision] = await db.$queryRaw<{ status: string }[]>`
    SELECT status::text FROM revisions WHERE id = ${revisionId}::uuid`;
  if (!revision) return;
  const stream = DEPLOY_STATUSES.has(revision.status) ? "deploy" : "build";
  await appendLogs(db, revisionId, stream, [line(revision.status)]);
}
