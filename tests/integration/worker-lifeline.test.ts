import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import {
  rescueOrphans,
  rescueUnrecorded,
  startLifeline,
  UNRECORDED_GRACE_SECONDS,
} from "../../src/server/jobs/lifeline";
import { QUEUES, startBoss } from "../../src/server/services/revisions/queue";
import { lockHeld } from "../../src/server/services/workers";
import { createTestDatabase } from "../../testing/database";
import { startWorkerProcess, type RunningWorker } from "../../testing/server";
import { deployUploadedSource } from "../../testing/uploads";
import { waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { sampleProject, tarGz } from "../helpers/tarball";

// Worker liveness (issue 27) with more than one worker: a worker killed in the middle of a build
// leaves its step to a worker already running, whose lifeline hands it back within seconds;
// the queue's job expiry is the default (15 minutes), untouched.

const RECOVERY_MS = 15_000;

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
const workers: RunningWorker[] = [];

const startWorker = async (extra: Record<string, string> = {}, options = { gated: false }) => {
  const env = {
    DATABASE_URL: database.url,
    // The key this process stores uploads with (the run's), so the worker can read them.
    HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
    HANGAR_WORKER_CONCURRENCY: "1",
    ...extra,
  };
  const worker = await startWorkerProcess(env, options);
  workers.push(worker);
  return worker;
};

beforeAll(async () => {
  database = await createTestDatabase("hangar_lifeline");
  db = createDb(database.url, 3);
  tenant = await createTenant(db);
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await db.$disconnect();
  await database.drop();
});

const liveWorkers = () =>
  db.$queryRaw<{ pid: number }[]>`SELECT w.pid FROM workers w WHERE ${lockHeld}`;

describe("a worker killed mid-build beside another worker", () => {
  it("is noticed at once; its step is resumed by the other within 15 s, logged as resumed", async () => {
    const first = await startWorker({ HANGAR_TEST_HOLD: "build" }, { gated: true });
    const created = await deployUploadedSource(db, tenant.actors.editor, {
      name: "lifeline",
      archive: tarGz(sampleProject()),
      sourceConfig: { build_command: "make" },
    });
    const revisionId = created.latest_revision_id!;
    await first.gate!.waitUntilHeld({ step: "build" });
    const second = await startWorker();
    expect((await liveWorkers()).map((w) => w.pid).sort()).toEqual(
      [first.process.pid, second.process.pid].sort(),
    );
    // The held build (other queues' jobs, such as the preview sweep, come and go meanwhile).
    const running = await db.workerJob.findMany({
      where: { queue: QUEUES.build },
      include: { worker: true },
    });
    expect(running.map((j) => j.worker.pid)).toEqual([first.process.pid]);

    first.process.kill("SIGKILL");
    const killedAt = Date.now();
    await waitForRevision(revisionId, ["DEPLOYED"], { db, timeoutMs: RECOVERY_MS });
    console.log(`DEPLOYED ${Date.now() - killedAt} ms after the building worker's SIGKILL`);
    expect((await liveWorkers()).map((w) => w.pid)).toEqual([second.process.pid]);
    // The stopped worker's registration is gone with its jobs.
    expect(await db.worker.count({ where: { pid: first.process.pid } })).toBe(0);

    const lines = (
      await db.revisionLog.findMany({ where: { revisionId }, orderBy: { seq: "asc" } })
    ).map((l) => l.line);
    const resumed = lines.filter((l) => l.startsWith("Resumed after its worker stopped"));
    expect(resumed).toEqual([expect.stringContaining(`worker ${first.process.pid} on `)]);
    expect(resumed[0]).toContain("ended during BUILDING");
    expect(lines).toContain("Resuming BUILDING (attempt 2)");
    expect(lines.filter((l) => l === "Build finished")).toHaveLength(1);
    expect(second.output()).toContain("job handed back: its worker stopped");
  }, 90_000);
});

describe("the lifeline's hand-back", () => {
  it("takes only the run a stopped worker recorded, once, and leaves a later run alone", async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const boss = await startBoss(database.url, { supervise: false, poolSize: 2 });
    try {
      // A teardown job (no revision log), fetched: active, as a worker's slot would have it.
      const jobId = (await boss.send(QUEUES.teardown, { deploymentId: crypto.randomUUID() }))!;
      const [job] = await boss.fetch(QUEUES.teardown);
      expect(job!.id).toBe(jobId);
      // A registered worker whose lock nobody holds (its process gone), which recorded the job
      // before this run started: an earlier attempt's record, not this run's.
      const dead = crypto.randomUUID();
      await db.$executeRaw`INSERT INTO workers (id, pid, host) VALUES (${dead}::uuid, 1, 'gone')`;
      await db.$executeRaw`INSERT INTO worker_jobs (job_id, queue, worker_id, started_at)
        VALUES (${jobId}::uuid, ${QUEUES.teardown}, ${dead}::uuid, now() - interval '1 minute')`;
      expect(await rescueOrphans({ db, boss })).toEqual([]);
      expect(await db.worker.count({ where: { id: dead } })).toBe(0);

      // Recorded for this run by a worker now gone: handed back, due at once, and only once.
      await db.$executeRaw`INSERT INTO workers (id, pid, host) VALUES (${dead}::uuid, 1, 'gone')`;
      await db.$executeRaw`INSERT INTO worker_jobs (job_id, queue, worker_id)
        VALUES (${jobId}::uuid, ${QUEUES.teardown}, ${dead}::uuid)`;
      const concurrent = await Promise.all([
        rescueOrphans({ db, boss }),
        rescueOrphans({ db, boss }),
      ]);
      const both = [...concurrent.flat(), ...(await rescueOrphans({ db, boss }))];
      expect(both).toEqual([{ jobId, queue: QUEUES.teardown, workerId: dead }]);
      const [row] = await db.$queryRaw<{ state: string; due: boolean }[]>`
        SELECT state::text, start_after <= now() AS due FROM pgboss.job WHERE id = ${jobId}::uuid`;
      expect(row).toEqual({ state: "retry", due: true });
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });

  it("takes a job no worker recorded within the grace, and a claim after that is refused", async () => {
    await Promise.all(workers.map((w) => w.stop()));
    const boss = await startBoss(database.url, { supervise: false, poolSize: 2 });
    const lifeline = await startLifeline(
      database.url,
      { db, boss },
      {
        intervalMs: 3_600_000,
        onLost: () => undefined,
      },
    );
    // Its first round (started at once) done, so the rescue below is the only one looking.
    await lifeline.idle();
    try {
      // The queue to itself (the test above left its job there).
      await db.$executeRaw`DELETE FROM pgboss.job WHERE name = ${QUEUES.teardown}`;
      const send = async () => {
        const id = (await boss.send(QUEUES.teardown, { deploymentId: crypto.randomUUID() }))!;
        const [job] = await boss.fetch(QUEUES.teardown, { includeMetadata: true });
        expect(job!.id).toBe(id);
        return job!;
      };
      const age = (id: string) => db.$executeRaw`
        UPDATE pgboss.job SET started_on = now() - make_interval(secs => ${
          UNRECORDED_GRACE_SECONDS + 5
        }::int) WHERE id = ${id}::uuid`;
      // Taken, never recorded (its worker killed in between), older than the grace: handed back.
      const lost = await send();
      await age(lost.id);
      // Taken and recorded by a live worker (then aged alike): left alone.
      const running = await send();
      await lifeline.claim(running);
      await age(running.id);
      // Taken a moment ago, not recorded yet: within the grace, left alone.
      const fresh = await send();

      const rescued = await rescueUnrecorded({ db, boss });
      expect(rescued.map((r) => r.jobId)).toEqual([lost.id]);
      const states = await db.$queryRaw<{ id: string; state: string }[]>`
        SELECT id::text, state::text FROM pgboss.job
        WHERE id IN (${lost.id}::uuid, ${running.id}::uuid, ${fresh.id}::uuid)`;
      expect(Object.fromEntries(states.map((r) => [r.id, r.state]))).toEqual({
        [lost.id]: "retry",
        [running.id]: "active",
        [fresh.id]: "active",
      });
      // The worker that took the lost job, had it lived: its claim finds the job gone.
      await expect(lifeline.claim(lost)).rejects.toThrow(/handed back before this worker/);
      expect(await db.workerJob.count({ where: { jobId: lost.id } })).toBe(0);
    } finally {
      await lifeline.stop();
      await boss.stop({ graceful: false, wait: true });
    }
  });
});
