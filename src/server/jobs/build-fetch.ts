import { Prisma } from "@/generated/prisma/client";
import type { Db, DbClient } from "@/server/db";
import { appendLogs } from "@/server/services/revisions/logs-append";
import { QUEUES } from "@/server/services/revisions/queue";

// The build queue's fetch, fair between workspaces. pg-boss's own fetch is strictly first in,
// first out (priority, then age), so one workspace queueing many builds would hold every build
// slot of every worker; its singleton policies refuse a second job instead of holding it back.
// So build slots admit jobs themselves, from pg-boss's table, and leave everything after the
// admission to pg-boss (complete, fail, retries, expiry) and the lifeline (hand-backs):
//
// - Under one transaction-scoped advisory lock, so two workers never both admit a workspace past
//   its cap: each fetch counts the running builds after the last admission committed.
// - Among due waiting build jobs (created or retry, start_after passed) whose workspace runs fewer
//   than the cap (active build jobs), it takes the one whose workspace runs the fewest, then
//   whose workspace's oldest waiting build has waited longest, then the oldest job: a workspace
//   with nothing running goes first, and equals take turns by age (work-conserving: a lone
//   workspace uses every slot its cap allows).
// - It marks the job active exactly as pg-boss's fetch does (state, started_on, retry_count).

/** The admission lock: one bigint key ("HANGBUIL"), apart from the workers' two-key locks. */
const ADMISSION_LOCK = Prisma.sql`5206528712179534156::bigint`;

/** A build job as a slot runs it (the fields pg-boss's fetch returns that the worker uses). */
export interface BuildJob {
  id: string;
  name: string;
  data: unknown;
  expireInSeconds: number;
  retryCount: number;
  retryLimit: number;
}

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/**
 * The build queue now: `waiting` has each due waiting job with its workspace and how many
 * builds that workspace runs. A waiting job whose revision no longer builds (interrupted,
 * deleted) has no workspace and no cap: it goes first, and ends at once without building.
 * Malformed data fails in the handler, as with pg-boss's fetch.
 */
const buildQueue = Prisma.sql`
  build_jobs AS (
    SELECT j.id, j.state, j.created_on, j.start_after, r.id AS revision_id,
      CASE WHEN j.state = 'active' OR r.status = 'BUILDING' THEN d.workspace_id END AS workspace_id
    FROM pgboss.job j
    LEFT JOIN revisions r ON r.id = CASE WHEN j.data->>'revisionId' ~ ${UUID}
                                         THEN (j.data->>'revisionId')::uuid END
    LEFT JOIN deployments d ON d.id = r.deployment_id
    WHERE j.name = ${QUEUES.build} AND j.state <= 'active'
  ),
  running AS (
    SELECT workspace_id, count(*)::int AS running FROM build_jobs
    WHERE state = 'active' AND workspace_id IS NOT NULL GROUP BY workspace_id
  ),
  waiting AS (
    SELECT b.id, b.revision_id, b.workspace_id, b.created_on, COALESCE(ru.running, 0) AS running
    FROM build_jobs b LEFT JOIN running ru ON ru.workspace_id = b.workspace_id
    WHERE b.state < 'active' AND b.start_after < now()
  )`;

/**
 * Admits the next build job fairly (see above), or answers null when none may start now. Also
 * logs, once per wait, each build that waits behind its workspace's cap.
 */
export async function fetchBuild(db: Db, workspaceConcurrency: number): Promise<BuildJob | null> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK})`;
      const [job] = await tx.$queryRaw<BuildJob[]>`
        WITH ${buildQueue},
        chosen AS (
          SELECT id FROM waiting
          WHERE workspace_id IS NULL OR running < ${workspaceConcurrency}
          ORDER BY running, min(created_on) OVER (PARTITION BY workspace_id), created_on, id
          LIMIT 1
        )
        UPDATE pgboss.job j SET
          state = 'active',
          started_on = now(),
          retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1
                             ELSE j.retry_count END
        FROM chosen
        WHERE j.name = ${QUEUES.build} AND j.id = chosen.id AND j.state < 'active'
        RETURNING j.id::text, j.name, j.data, EXTRACT(epoch FROM j.expire_in)::int AS "expireInSeconds",
          j.retry_count AS "retryCount", j.retry_limit AS "retryLimit"`;
      await noteWaits(tx, workspaceConcurrency);
      return job ?? null;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** The log line of a build waiting behind its workspace's cap. */
export const waitingLine = (running: number, cap: number) =>
  `Waiting for a build slot: ${running} ${running === 1 ? "build" : "builds"} of this ` +
  `workspace ${running === 1 ? "is" : "are"} running (HANGAR_BUILD_WORKSPACE_CONCURRENCY=${cap})`;

/**
 * One build-log line per wait behind the cap: `build_waits` remembers the waits logged and
 * forgets a job once it no longer waits (admitted, ended), so a job handed back and waiting again
 * is logged again.
 */
async function noteWaits(tx: DbClient, cap: number): Promise<void> {
  await tx.$executeRaw`
    DELETE FROM build_waits w WHERE NOT EXISTS (
      SELECT 1 FROM pgboss.job j
      WHERE j.name = ${QUEUES.build} AND j.id = w.job_id AND j.state < 'active')`;
  const noted = await tx.$queryRaw<{ revision_id: string; running: number }[]>`
    WITH ${buildQueue},
    blocked AS (
      SELECT id, revision_id, running FROM waiting
      WHERE workspace_id IS NOT NULL AND running >= ${cap}
    ),
    noted AS (
      INSERT INTO build_waits (job_id) SELECT id FROM blocked
      ON CONFLICT (job_id) DO NOTHING RETURNING job_id
    )
    SELECT b.revision_id::text, b.running FROM blocked b JOIN noted n ON n.job_id = b.id`;
  for (const wait of noted)
    await appendLogs(tx, wait.revision_id, "build", [waitingLine(wait.running, cap)]);
}
