// `npm run bench:revisions`: how many revisions per minute one worker process, then two, carry
// from QUEUED to DEPLOYED with the default drivers. Seeds BENCH_REVISIONS internal_container
// deployments (each with its first revision queued, through the real create path) in a
// throwaway database, starts the workers, and times until every revision is DEPLOYED.
// The queued jobs are held until every worker is ready, then released at once: the clock
// starts there, so process start-up is not counted.
import { randomBytes } from "node:crypto";
import { createTestDatabase } from "../tests/helpers/database";
import { startWorkerProcess, testSecrets, type RunningWorker } from "../tests/helpers/server";
import { ensurePostgres } from "../tests/helpers/services";

const COUNT = Number(process.env.BENCH_REVISIONS ?? 200);
const CONCURRENCY = process.env.HANGAR_WORKER_CONCURRENCY ?? "4";

await ensurePostgres();
const database = await createTestDatabase("hangar_bench_revisions");
process.env.DATABASE_URL = database.url;
process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
// Imported once the environment is set: it is parsed on first import.
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");
const { ensureQueues } = await import("../src/server/jobs/queue");
const db = createDb(database.url, 4);

const workerEnv = {
  DATABASE_URL: database.url,
  HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY,
  HANGAR_WORKER_CONCURRENCY: CONCURRENCY,
  HANGAR_QUEUE_POLL_SECONDS: "0.5",
};

async function seed(round: string, count: number) {
  const org = await db.organization.create({ data: { name: `bench ${round}` } });
  const ws = await db.workspace.create({ data: { organizationId: org.id, name: round } });
  const actor = {
    kind: "api_key" as const,
    userId: null,
    apiKeyId: null,
    organizationId: org.id,
    workspaceId: ws.id,
    role: "editor" as const,
  };
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

async function run(workerCount: number): Promise<number> {
  const revisionIds = await seed(`w${workerCount}`, COUNT);
  await db.$executeRaw`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE state = 'created'`;
  const workers: RunningWorker[] = await Promise.all(
    Array.from({ length: workerCount }, () => startWorkerProcess(workerEnv)),
  );
  const started = performance.now();
  await db.$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE state = 'created'`;
  for (;;) {
    const deployed = await db.revision.count({
      where: { id: { in: revisionIds }, status: "DEPLOYED" },
    });
    if (deployed === revisionIds.length) break;
    const failed = await db.revision.count({
      where: {
        id: { in: revisionIds },
        status: { notIn: ["QUEUED", "AWAITING_BUILD", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOYED"] },
      },
    });
    if (failed) throw new Error(`${failed} revisions did not deploy`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const minutes = (performance.now() - started) / 60_000;
  await Promise.all(workers.map((w) => w.stop()));
  return revisionIds.length / minutes;
}

try {
  // pg-boss's schema and queues exist before the first revision is queued.
  await ensureQueues(database.url);
  const one = await run(1);
  const two = await run(2);
  console.log(
    `revisions: ${COUNT} per round, ${CONCURRENCY} concurrent steps per worker, default drivers`,
  );
  console.log(`1 worker : ${one.toFixed(0)} revisions/minute`);
  console.log(`2 workers: ${two.toFixed(0)} revisions/minute`);
  console.log(`ratio 2 workers / 1 worker: ${(two / one).toFixed(2)}`);
} finally {
  await db.$disconnect();
  await database.drop();
  process.exit(0);
}
