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
  /** Records that this worker runs the job (before running it). */
  claim(job: { id: string; name: string }): Promise<void>;
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
      await query(
        `INSERT INTO worker_jobs (job_id, queue, worker_id) VALUES ($1, $2, $3)
         ON CONFLICT (job_id) DO UPDATE
           SET queue = excluded.queue, worker_id = excluded.worker_id, started_at = now()`,
        [job.id, job.name, workerId],
      );
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
      const reason = `worker ${worker.pid} on ${worker.host} stopped while running it`;
      await ctx.boss.fail(
        orphan.queue,
        orphan.job_id,
        { message: reason },
        {
          db: inTransaction(tx),
        },
      );
      // Retried at once rather than after the queue's retry delay.
      await tx.$executeRaw`
        UPDATE pgboss.job SET start_after = now()
        WHERE name = ${orphan.queue} AND id = ${orphan.job_id}::uuid AND state = 'retry'`;
      await jobWake.notify(tx, orphan.queue);
      const revisionId = orphan.queue === QUEUES.teardown ? undefined : orphan.data.revisionId;
      if (revisionId)
        await logStep(
          tx,
          revisionId,
          (status) =>
            `Resumed after its worker stopped: worker ${worker.pid} on ${worker.host} ended ` +
            `during ${status}; another worker takes the step over now.`,
        );
      log.warn("job handed back: its worker stopped", {
        job_id: orphan.job_id,
        queue: orphan.queue,
        worker_pid: worker.pid,
        worker_host: worker.host,
        ...(revisionId ? { revision_id: revisionId } : {}),
      });
    }
    await tx.$executeRaw`DELETE FROM workers WHERE id = ANY(${ids}::uuid[])`;
    return orphans.map((o) => ({ jobId: o.job_id, queue: o.queue, workerId: o.worker_id }));
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
