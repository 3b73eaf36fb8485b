// `npm run bench:revisions`: how many revisions per minute one worker process, then two, carry
// from QUEUED to DEPLOYED: with the default drivers (no latency: the database's own cost), and
// with drivers the benchmark injects that take BENCH_STEP_LATENCY_MS (default 200) per step, as
// a real build or deploy does (bench/latency-worker.ts). Seeds BENCH_REVISIONS internal_container
// deployments per round (each with its first revision queued, through the real create path). The
// queued jobs are held until every worker is ready, then released at once (and the workers woken,
// as a job the web server sends wakes them): the clock starts there. Rounds run with 1, 2, 2, then
// 1 worker, so a load that drifts weighs on both. Beside each: the CPU the workers and their
// database backends used, the CPU the rest of the machine used, and how many backends were active
// or waiting on a lock, to show where the limit is; after each pair, what the free cores allow at
// one worker's CPU per revision. Runs on the machine's PostgreSQL and on the embedded default
// (BENCH_DATABASES picks).
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Db } from "../src/server/db";
import { startWorkerProcess, testSecrets, type RunningWorker } from "../testing/server";
import { cpuMeter } from "./cpu";
import { selectedDatabases } from "./databases";
import { benchWorkspace } from "./workspace";

const COUNT = Number(process.env.BENCH_REVISIONS ?? 200);
const CONCURRENCY = process.env.HANGAR_WORKER_CONCURRENCY ?? "4";
const LATENCY = process.env.BENCH_STEP_LATENCY_MS ?? "200";
// BENCH_ROUNDS=latency runs only the rounds with slow drivers, BENCH_ROUNDS=default only the others.
const LATENCIES = { latency: [Number(LATENCY)], default: [0] }[process.env.BENCH_ROUNDS ?? ""] ?? [
  0,
  Number(LATENCY),
];

process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
// Imported once the environment is set: it is parsed on first import.
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");
const { ensureQueues, jobWake, QUEUES } = await import("../src/server/services/revisions/queue");

async function seed(db: Db, round: string, count: number) {
  const { actor } = await benchWorkspace(db, round);
  const revisionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createDeployment(db, actor, {
      name: `bench-${round}-${i}`,
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: `registry.example/agent:${i}` },
      secrets: [{ name: "TOKEN", value: randomBytes(8).toString("hex") }],
    } as Parameters<typeof createDeployment>[2]);
    revisionIds.push(created.latest_revision_id!);
  }
  return revisionIds;
}

interface Round {
  perMinute: number;
  workerCpu: number;
  databaseCpu: number;
  seconds: number;
  active: number;
  lockWaits: number;
  inTransaction: number;
  jobWaitMs: number;
  jobRunMs: number;
  retries: number;
  jobs: number;
  /** Worker and database CPU per revision, milliseconds. */
  cpuMsPerRevision: number;
  /** Cores other processes (other engineers' builds, this benchmark's sampling) kept busy. */
  othersCpu: number;
}

/** Two rounds as one: rates over their summed time, step times over their summed jobs. */
function combine(a: Round, b: Round): Round {
  const seconds = a.seconds + b.seconds;
  const jobs = a.jobs + b.jobs;
  const byTime = (f: (r: Round) => number) => (f(a) * a.seconds + f(b) * b.seconds) / seconds;
  const byJob = (f: (r: Round) => number) => (f(a) * a.jobs + f(b) * b.jobs) / jobs;
  return {
    seconds,
    perMinute: (2 * COUNT * 60) / seconds,
    workerCpu: byTime((r) => r.workerCpu),
    databaseCpu: byTime((r) => r.databaseCpu),
    othersCpu: byTime((r) => r.othersCpu),
    active: byTime((r) => r.active),
    lockWaits: byTime((r) => r.lockWaits),
    inTransaction: byTime((r) => r.inTransaction),
    jobWaitMs: byJob((r) => r.jobWaitMs),
    jobRunMs: byJob((r) => r.jobRunMs),
    jobs,
    retries: a.retries + b.retries,
    cpuMsPerRevision: (a.cpuMsPerRevision + b.cpuMsPerRevision) / 2,
  };
}

let rounds = 0;
async function run(db: Db, url: string, workerCount: number, latencyMs: number): Promise<Round> {
  const revisionIds = await seed(db, `r${++rounds}w${workerCount}l${latencyMs}`, COUNT);
  await db.$executeRaw`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE state = 'created'`;
  const env = {
    DATABASE_URL: url,
    HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
    HANGAR_WORKER_CONCURRENCY: CONCURRENCY,
    HANGAR_QUEUE_POLL_SECONDS: "0.5",
    BENCH_STEP_LATENCY_MS: String(latencyMs),
  };
  const entry = latencyMs ? "bench/latency-worker.ts" : "scripts/worker.ts";
  const workers: RunningWorker[] = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startWorkerProcess(env, { entry, startTimeoutMs: 120_000 }),
    ),
  );
  // The workers, and the database backends serving this database (the workers' pools, this process's).
  const meter = await cpuMeter(
    db,
    workers.map((w) => w.process.pid!),
  );
  const samples = { n: 0, active: 0, lockWaits: 0, inTransaction: 0 };

  const started = performance.now();
  await db.$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE state = 'created'`;
  // Released jobs wake the workers as a job sent by the web server does.
  await jobWake.notify(db, QUEUES.revisionStep);
  for (;;) {
    const [state] = await db.$queryRaw<
      { deployed: number; failed: number; active: number; locks: number; inTransaction: number }[]
    >`
      SELECT (SELECT count(*)::int FROM revisions WHERE id = ANY(${revisionIds}::uuid[]) AND status = 'DEPLOYED') AS deployed,
             (SELECT count(*)::int FROM revisions WHERE id = ANY(${revisionIds}::uuid[])
                AND status NOT IN ('QUEUED','AWAITING_BUILD','BUILDING','AWAITING_DEPLOY','DEPLOYING','DEPLOYED')) AS failed,
             (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()) AS active,
             (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock') AS locks,
             (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction') AS "inTransaction"`;
    samples.n++;
    samples.active += state!.active;
    samples.lockWaits += state!.locks;
    samples.inTransaction += state!.inTransaction;
    if (state!.failed) throw new Error(`${state!.failed} revisions did not deploy`);
    if (state!.deployed === revisionIds.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = await meter();
  const [jobs] = await db.$queryRaw<
    { wait: number; run: number; retries: number; count: number }[]
  >`
    SELECT avg(extract(epoch FROM started_on - greatest(created_on, start_after)))::float8 * 1000 AS wait,
           avg(extract(epoch FROM completed_on - started_on))::float8 * 1000 AS run,
           coalesce(sum(retry_count), 0)::int AS retries, count(*)::int AS count
    FROM pgboss.job WHERE name = 'revision-step' AND data->>'revisionId' = ANY(${revisionIds})`;
  await Promise.all(workers.map((w) => w.stop()));
  const ours = cpu.processes + cpu.database;
  return {
    cpuMsPerRevision: (ours * 1000) / revisionIds.length,
    othersCpu: Math.max(0, cpu.machine - ours) / seconds,
    perMinute: revisionIds.length / (seconds / 60),
    seconds,
    workerCpu: cpu.processes / seconds,
    databaseCpu: cpu.database / seconds,
    jobWaitMs: jobs!.wait,
    jobRunMs: jobs!.run,
    retries: jobs!.retries,
    jobs: jobs!.count,
    active: samples.active / samples.n,
    lockWaits: samples.lockWaits / samples.n,
    inTransaction: samples.inTransaction / samples.n,
  };
}

const rows: string[][] = [];
for (const open of selectedDatabases("hangar_bench_revisions")) {
  const database = await open();
  const db = createDb(database.url, 4);
  try {
    // pg-boss's schema and queues exist before the first revision is queued.
    await ensureQueues(database.url);
    for (const latency of LATENCIES) {
      // 1, 2, 2, then 1 worker: a load that drifts during the run weighs on both alike.
      const firstOne = await run(db, database.url, 1, latency);
      const firstTwo = await run(db, database.url, 2, latency);
      const two = combine(firstTwo, await run(db, database.url, 2, latency));
      const one = combine(firstOne, await run(db, database.url, 1, latency));
      const drivers = latency ? `${latency} ms per step` : "default (no latency)";
      for (const [n, r] of [
        [1, one],
        [2, two],
      ] as const)
        rows.push([
          database.label,
          drivers,
          String(n),
          r.perMinute.toFixed(0),
          n === 2 ? (two.perMinute / one.perMinute).toFixed(2) : "",
          r.workerCpu.toFixed(2),
          r.databaseCpu.toFixed(2),
          r.active.toFixed(1),
          r.lockWaits.toFixed(2),
          r.inTransaction.toFixed(1),
          r.cpuMsPerRevision.toFixed(1),
          r.othersCpu.toFixed(2),
          `${r.jobWaitMs.toFixed(0)} / ${r.jobRunMs.toFixed(0)}`,
          `${r.jobs} / ${r.retries}`,
        ]);
      // What the machine allows: the cores others left free, spent at one worker's CPU per revision.
      const cores = os.cpus().length;
      const free = Math.max(0, cores - two.othersCpu);
      const ceiling = (free * 60_000) / one.cpuMsPerRevision;
      console.log(
        `${database.label}, ${drivers}: 2 workers / 1 = ${(two.perMinute / one.perMinute).toFixed(2)}.` +
          ` One worker used ${one.workerCpu.toFixed(2)} (its event loop: one core at most) + ${one.databaseCpu.toFixed(2)} database` +
          ` = ${(one.workerCpu + one.databaseCpu).toFixed(2)} cores, ${one.cpuMsPerRevision.toFixed(1)} ms of CPU per revision;` +
          ` ${cores} cores less ${two.othersCpu.toFixed(2)} used by other processes during the two-worker round` +
          ` = ${free.toFixed(2)} cores allow at most ${ceiling.toFixed(0)}/min = ${(ceiling / one.perMinute).toFixed(2)}× one worker` +
          `. Two workers: ${two.cpuMsPerRevision.toFixed(1)} ms per revision, ${(two.workerCpu + two.databaseCpu).toFixed(2)} cores;` +
          ` with the others' ${two.othersCpu.toFixed(2)}, the machine was ${(((two.workerCpu + two.databaseCpu + two.othersCpu) / cores) * 100).toFixed(0)}% busy.`,
      );
    }
  } finally {
    await db.$disconnect();
    await database.close();
  }
}
console.log(
  `\nrevisions: ${COUNT} per round, ${CONCURRENCY} concurrent steps per worker; each row adds up two rounds (run with 1, 2, 2, then 1 worker). CPU columns are cores` +
    ` used on average during the round (workers: the worker processes; database: the backends of` +
    ` this database; others: the rest of the machine, from /proc/stat); CPU ms per revision: workers + database; active, lock waits and idle in transaction (waiting for the worker to send the next statement): backends of this database, sampled every ~50 ms\n`,
);
const header = [
  "database",
  "drivers",
  "workers",
  "revisions/min",
  "2/1 ratio",
  "worker CPU",
  "database CPU",
  "active backends",
  "waiting on locks",
  "idle in transaction",
  "CPU ms per revision",
  "others' CPU",
  "step queued / running ms",
  "step jobs / retries",
];
console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
console.log(
  `\nmachine: ${os.cpus().length} cores, load average over the last 5 minutes at the end: ${os.loadavg()[1]!.toFixed(1)}` +
    ` (above the core count, every process here waits for a CPU; steps spend it between their database round trips)`,
);
process.exit(0);
