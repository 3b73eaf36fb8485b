import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import { waitingLine } from "../../src/server/jobs/build-fetch";
import { interruptRevision } from "../../src/server/services/revisions/interrupt";
import { QUEUES } from "../../src/server/services/revisions/queue";
import { createTestDatabase } from "../../testing/database";
import type { GateClient } from "../../testing/gate";
import { startWorkerProcess, type RunningWorker } from "../../testing/server";
import { deployUploadedSource } from "../../testing/uploads";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { sampleProject, tarGz } from "../helpers/tarball";

// Fair build queueing (issue 32): build slots admit builds so that one workspace never runs more
// than HANGAR_BUILD_WORKSPACE_CONCURRENCY at once across every worker, and a workspace with
// nothing running goes before another's older builds. Dry-run builds held at each worker's gate
// (by deployment id) stand for long builds: what is held is what runs.

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let workers: RunningWorker[] = [];
/** Stops each watchActive still sampling (a failed test leaves its own). */
let samplers: (() => Promise<void>)[] = [];
const archive = tarGz(sampleProject());

const startWorker = async (workspaceConcurrency: number) => {
  const worker = await startWorkerProcess(
    {
      DATABASE_URL: database.url,
      // The key this process stores uploads with (the run's), so the worker can read them.
      HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
      HANGAR_WORKER_CONCURRENCY: "2",
      HANGAR_BUILD_CONCURRENCY: "2",
      HANGAR_BUILD_WORKSPACE_CONCURRENCY: String(workspaceConcurrency),
      HANGAR_QUEUE_POLL_SECONDS: "0.5",
    },
    // Worker processes start slowly on a loaded shared machine.
    { gated: true, startTimeoutMs: 60_000 },
  );
  workers.push(worker);
  return worker;
};
const gates = () => workers.map((w) => w.gate!);

beforeAll(async () => {
  database = await createTestDatabase("hangar_fairq");
  db = createDb(database.url, 4);
});
afterEach(async () => {
  await Promise.all(samplers.map((stop) => stop()));
  samplers = [];
  await Promise.all(workers.map((w) => w.stop()));
  workers = [];
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

interface Build {
  name: string;
  deploymentId: string;
  revisionId: string;
}

/** A build of the tenant's workspace, held at every gate, once its job waits in the queue. */
async function queueBuild(
  tenant: Tenant,
  name: string,
  at: GateClient[] = gates(),
): Promise<Build> {
  let deploymentId = "";
  const deployment = await deployUploadedSource(db, tenant.actors.editor, {
    name,
    archive,
    beforeRevision: async (id) => {
      deploymentId = id;
      for (const gate of at) await gate.hold({ step: "build", name: id });
    },
  });
  const revisionId = deployment.latest_revision_id!;
  await waitForRevision(revisionId, ["BUILDING"], { db });
  return { name, deploymentId, revisionId };
}

/** The builds held at the gates now (running), by name. */
async function running(builds: Build[]): Promise<string[]> {
  const held = (await Promise.all(gates().map((g) => g.held()))).flat();
  return builds
    .filter((b) => held.some((h) => h.step === "build" && h.name === b.deploymentId))
    .map((b) => b.name)
    .sort();
}

const waitRunning = (builds: Build[], expected: string[]) =>
  waitFor(
    () => running(builds),
    (names) => JSON.stringify(names) === JSON.stringify([...expected].sort()),
    { timeoutMs: 15_000, what: `builds running: ${expected.join(", ")}` },
  );

const release = async (build: Build) => {
  for (const gate of gates()) await gate.release({ step: "build", name: build.deploymentId });
};

/**
 * The most builds of each workspace seen running at once (sampled) until stopped: active build
 * jobs of revisions still BUILDING (an interrupted one's job ends without building).
 */
function watchActive() {
  const most = new Map<string, number>();
  let on = true;
  const loop = (async () => {
    while (on) {
      const rows = await db.$queryRaw<{ workspace_id: string; active: number }[]>`
        SELECT d.workspace_id::text, count(*)::int AS active FROM pgboss.job j
        JOIN revisions r ON r.id = (j.data->>'revisionId')::uuid
        JOIN deployments d ON d.id = r.deployment_id
        WHERE j.name = ${QUEUES.build} AND j.state = 'active' AND r.status = 'BUILDING'
        GROUP BY 1`;
      for (const row of rows)
        most.set(row.workspace_id, Math.max(most.get(row.workspace_id) ?? 0, row.active));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const stop = async () => ((on = false), await loop);
  samplers.push(stop);
  return { most: (tenant: Tenant) => most.get(tenant.workspaceId) ?? 0, stop };
}

const buildLog = async (build: Build) =>
  (
    await db.revisionLog.findMany({
      where: { revisionId: build.revisionId },
      orderBy: { seq: "asc" },
    })
  ).map((l) => l.line);

const waitLogged = (build: Build, line: string) =>
  waitFor(
    () => buildLog(build),
    (lines) => lines.includes(line),
    { timeoutMs: 15_000, what: `"${line}" in the log of ${build.name}` },
  );

async function releaseAll(builds: Build[]) {
  for (const build of builds) await release(build);
  for (const build of builds)
    await waitForRevision(build.revisionId, ["DEPLOYED"], { db, timeoutMs: 30_000 });
}

describe("with two build slots and the cap at 1", () => {
  it("another workspace's build starts before A's second; A never runs two; a wait is logged once", async () => {
    await startWorker(1);
    const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => createTenant(db)));
    const active = watchActive();
    // Both slots busy with other workspaces, so A's and B's builds all wait in the queue.
    const c1 = await queueBuild(c!, "c1");
    const d1 = await queueBuild(d!, "d1");
    await waitRunning([c1, d1], ["c1", "d1"]);
    const a1 = await queueBuild(a!, "a1");
    const a2 = await queueBuild(a!, "a2");
    const a3 = await queueBuild(a!, "a3");
    const b1 = await queueBuild(b!, "b1");
    const all = [a1, a2, a3, b1, c1, d1];

    await release(c1);
    await waitRunning(all, ["a1", "d1"]);
    // FIFO would take a2 here: B's later build goes first.
    await release(d1);
    await waitRunning(all, ["a1", "b1"]);
    const waiting = waitingLine(1, 1);
    expect(waiting).toBe(
      "Waiting for a build slot: 1 build of this workspace is running (HANGAR_BUILD_WORKSPACE_CONCURRENCY=1)",
    );
    await waitLogged(a2, waiting);
    await waitLogged(a3, waiting);

    // An interrupted build no longer waits for the cap: its job ends in the first free slot.
    await interruptRevision(db, a!.actors.editor, a3.deploymentId, a3.revisionId);
    // B done: its slot stays free rather than start a2 (A is at its cap); E's later build takes it.
    await release(b1);
    await waitForRevision(b1.revisionId, ["DEPLOYED"], { db });
    await waitFor(
      () => db.$queryRaw<{ state: string }[]>`
        SELECT state::text FROM pgboss.job
        WHERE name = ${QUEUES.build} AND data->>'revisionId' = ${a3.revisionId}`,
      (rows) => rows[0]?.state === "completed",
      { timeoutMs: 15_000, what: "the interrupted build's job to end" },
    );
    const e1 = await queueBuild(e!, "e1");
    await waitRunning([...all, e1], ["a1", "e1"]);

    await release(a1);
    await waitRunning([...all, e1], ["a2", "e1"]);
    await releaseAll([a2, e1]);
    expect((await waitForRevision(a3.revisionId, undefined, { db })).status).toBe("INTERRUPTED");
    await active.stop();
    expect(active.most(a!)).toBe(1);
    // One line per wait, however many times the slots looked meanwhile.
    expect((await buildLog(a2)).filter((l) => l === waiting)).toHaveLength(1);
    expect((await buildLog(a3)).filter((l) => l === waiting)).toHaveLength(1);
    expect((await buildLog(b1)).filter((l) => l.startsWith("Waiting for a build slot"))).toEqual(
      [],
    );
  }, 120_000);
});

describe("with two build slots and the cap at 2", () => {
  it("the workspace running fewer goes first, and A takes both slots when nobody else waits", async () => {
    await startWorker(2);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createTenant(db)));
    const active = watchActive();
    const c1 = await queueBuild(c!, "c1");
    const c2 = await queueBuild(c!, "c2");
    await waitRunning([c1, c2], ["c1", "c2"]);
    const a1 = await queueBuild(a!, "a1");
    const a2 = await queueBuild(a!, "a2");
    const a3 = await queueBuild(a!, "a3");
    const b1 = await queueBuild(b!, "b1");
    const all = [a1, a2, a3, b1, c1, c2];

    await release(c1);
    await waitRunning(all, ["a1", "c2"]);
    // A runs one, B none: B's build before A's older second.
    await release(c2);
    await waitRunning(all, ["a1", "b1"]);
    // Nothing else waits: A uses both slots (work-conserving), and a3 waits behind the cap.
    await release(b1);
    await waitRunning(all, ["a1", "a2"]);
    await waitLogged(a3, waitingLine(2, 2));
    expect(waitingLine(2, 2)).toContain("2 builds of this workspace are running");

    await releaseAll([a1, a2, a3]);
    await active.stop();
    expect(active.most(a!)).toBe(2);
    expect(active.most(c!)).toBe(2);
  }, 120_000);
});

describe("two workers on one database", () => {
  it("never run more than the cap of one workspace between them", async () => {
    await Promise.all([startWorker(2), startWorker(2)]);
    const [a, b] = await Promise.all([1, 2].map(() => createTenant(db)));
    const active = watchActive();
    const builds: Build[] = [];
    for (let i = 1; i <= 5; i++) builds.push(await queueBuild(a!, `a${i}`));
    const b1 = await queueBuild(b!, "b1");
    // Four slots between the two workers: A's two and B's one run, a3 to a5 wait.
    await waitRunning([...builds, b1], ["a1", "a2", "b1"]);
    // Release whatever A runs, one at a time: each end admits A's next, on either worker.
    const done = new Set<string>();
    while (done.size < builds.length) {
      const now = await waitFor(
        () => running(builds),
        (names) => names.some((n) => !done.has(n)),
        { timeoutMs: 15_000, what: "one of A's builds to run" },
      );
      expect(now.length).toBeLessThanOrEqual(2);
      const next = builds.find((b) => b.name === now.find((n) => !done.has(n)))!;
      done.add(next.name);
      await release(next);
      await waitForRevision(next.revisionId, ["DEPLOYED"], { db });
    }
    await releaseAll([b1]);
    await active.stop();
    expect(active.most(a!)).toBe(2);
  }, 180_000);
});

describe("a worker killed while it runs a build", () => {
  it("has its build handed back; it counts as running until then, and runs again before A's next", async () => {
    const first = await startWorker(1);
    const a = await createTenant(db);
    const a1 = await queueBuild(a, "a1");
    await waitRunning([a1], ["a1"]);
    const second = await startWorker(1);
    const active = watchActive();
    // Held at the second worker's gate too, where it runs once handed back.
    await second.gate!.hold({ step: "build", name: a1.deploymentId });
    const a2 = await queueBuild(a, "a2");
    await waitLogged(a2, waitingLine(1, 1));

    first.process.kill("SIGKILL");
    workers = workers.filter((w) => w !== first);
    // The second worker's lifeline hands a1 back; a1, the older, runs there before a2.
    await waitRunning([a1, a2], ["a1"]);
    const lines = await buildLog(a1);
    expect(lines.some((l) => l.startsWith("Resumed after its worker stopped"))).toBe(true);
    expect(lines).toContain("Resuming BUILDING (attempt 2)");

    await release(a1);
    await waitRunning([a1, a2], ["a2"]);
    await releaseAll([a1, a2]);
    await active.stop();
    expect(active.most(a)).toBe(1);
  }, 120_000);
});

describe("a worker stopped (SIGTERM) while it runs a build", () => {
  it("hands the build back after its 10 s grace, logged, and another worker builds it", async () => {
    const first = await startWorker(1);
    const a = await createTenant(db);
    const a1 = await queueBuild(a, "a1");
    await waitRunning([a1], ["a1"]);
    // Its gate holds nothing: it builds a1 once the first worker hands it back.
    await startWorker(1);
    const stopping = Date.now();
    await first.stop();
    workers = workers.filter((w) => w !== first);
    const stoppedMs = Date.now() - stopping;
    expect(stoppedMs).toBeGreaterThanOrEqual(10_000);
    expect(stoppedMs).toBeLessThan(30_000);
    await waitForRevision(a1.revisionId, ["DEPLOYED"], { db, timeoutMs: 20_000 });
    const lines = await buildLog(a1);
    expect(lines).toContain(
      "Handed back: the worker stopped during BUILDING; the next worker resumes it.",
    );
    // Handed back by the stopping worker itself, not left to the other's lifeline.
    expect(lines.filter((l) => l.startsWith("Resumed after its worker stopped"))).toEqual([]);
    expect(lines).toContain("Resuming BUILDING (attempt 2)");
    expect(lines.filter((l) => l === "Build finished")).toHaveLength(1);
  }, 120_000);
});
