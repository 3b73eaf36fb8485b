import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { env } from "../../src/env";
import { LOG_ANSWER_BYTES } from "../../src/lib/log-text";
import { createDb, type Db } from "../../src/server/db";
import { createDeployment } from "../../src/server/services/deployments/create";
import { createTestDatabase } from "../../testing/database";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import {
  startServer,
  startWorkerProcess,
  type RunningServer,
  type RunningWorker,
} from "../../testing/server";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Running, observed (issue 25), against the fake Kubernetes API: a worker and a server of our
// own whose kubeconfig names it, on a database of our own. What the fake pods print reaches the
// deploy client's route and the dashboard's procedure; the deployment's status follows what
// the cluster shows (a crash loop, an OOM kill, a drain) and its activity says so.

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
let kube: FakeKubeApi;
let worker: RunningWorker;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase("hangar_runtime");
  db = createDb(database.url, 3);
  tenant = await createTenant(db);
  kube = await startFakeKubeApi();
  const kubeconfig = kube.kubeconfig();
  const own = { DATABASE_URL: database.url, HANGAR_KUBECONFIG: kubeconfig };
  [worker, server] = await Promise.all([
    startWorkerProcess({
      ...own,
      HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
      HANGAR_ROLLOUT_TIMEOUT_SECONDS: "20",
      HANGAR_QUEUE_POLL_SECONDS: "0.5",
      HANGAR_HEALTH_RESYNC_SECONDS: "2",
    }),
    startServer({ ...inject("testEnv"), ...own }),
  ]);
  // The dashboard's procedures run in this process: the same cluster.
  env.HANGAR_KUBECONFIG = kubeconfig;
}, 120_000);
afterAll(async () => {
  await Promise.all([worker?.stop(), server?.stop()]);
  await kube?.stop();
  await db?.$disconnect();
  await database?.drop();
});

const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  api(path, { baseUrl: server.url, ...init, key: init.key ?? tenant.keys.viewer });
const logs = (id: string, body: unknown, key?: string) =>
  call(`/v1/projects/${id}/deploy_logs`, { method: "POST", body, key });
const state = (id: string) => call(`/v2/deployments/${id}/runtime_state`);

async function deployed(name: string, image: string) {
  kube.setRollout("ready");
  const created = await createDeployment(db, tenant.actors.editor, {
    name,
    source: "internal_container",
    source_config: { resource_spec: { min_scale: 2, max_scale: 2 } },
    source_revision_config: { image_uri: image },
  } as Parameters<typeof createDeployment>[2]);
  const revision = await waitForRevision(created.latest_revision_id!, undefined, { db });
  expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
  return created.id;
}

const statusOf = async (id: string) =>
  (await db.deployment.findUniqueOrThrow({ where: { id } })).status;

describe("runtime logs", () => {
  let id: string;
  beforeAll(async () => {
    id = await deployed("rt-logs", "registry.example/agent:logs");
  }, 60_000);

  it("serves what every replica printed, newest first, in the deploy client's shape", async () => {
    kube.printLog("rt-logs", ["INFO Application startup complete", "ERROR graph failed: boom"]);
    kube.printLog("rt-logs-queue", ['{"level": "warning", "event": "queue is slow"}']);
    const res = await logs(id, { limit: 100, order: "desc" });
    expect(res.status, res.text).toBe(200);
    const messages = res.body.logs.map((l: { message: string }) => l.message);
    // Two server replicas and one queue worker.
    expect(messages.filter((m: string) => m === "ERROR graph failed: boom")).toHaveLength(2);
    expect(messages).toContain("queue is slow");
    expect(res.body.logs[0]).toMatchObject({
      id: expect.any(String),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: expect.stringMatching(/^(INFO|ERROR|WARNING)$/),
      pod: expect.stringMatching(/^rt-logs/),
    });
    expect(res.body.pods).toHaveLength(3);
    expect(res.body.source).toMatch(/Hangar keeps no copy/);
    const stamps = res.body.logs.map((l: { timestamp: string }) => l.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it("filters by level, query, time and replica, and pages with next_offset", async () => {
    const errors = await logs(id, { level: "error" });
    expect(errors.body.logs.map((l: { level: string }) => l.level)).toEqual(["ERROR", "ERROR"]);
    const warned = await logs(id, { query: "SLOW" });
    expect(warned.body.logs).toEqual([expect.objectContaining({ level: "WARNING" })]);
    const later = await logs(id, { start_time: new Date(Date.now() + 60_000).toISOString() });
    expect(later.body.logs).toEqual([]);
    const pod = (await logs(id, {})).body.pods.find(
      (p: { component: string }) => p.component === "server",
    ).name;
    const one = await logs(id, { pod });
    expect(new Set(one.body.logs.map((l: { pod: string }) => l.pod))).toEqual(new Set([pod]));
    const first = await logs(id, { limit: 2, order: "asc" });
    const second = await logs(id, { limit: 100, order: "asc", offset: first.body.next_offset });
    const all = await logs(id, { limit: 100, order: "asc" });
    expect([...first.body.logs, ...second.body.logs].map((l: { id: string }) => l.id)).toEqual(
      all.body.logs.map((l: { id: string }) => l.id),
    );
    expect((await logs(id, { offset: "nonsense" })).status).toBe(422);
  });

  it("follows as the deploy client does: ascending from the last timestamp, de-duplicated by id", async () => {
    const first = await logs(id, { limit: 100, order: "desc" });
    const newest = first.body.logs[0].timestamp;
    const seen = new Set(first.body.logs.map((l: { id: string }) => l.id));
    kube.printLog("rt-logs", ["INFO a new request"], { replica: 0 });
    const next = await logs(id, { limit: 100, order: "asc", start_time: newest });
    const fresh = next.body.logs.filter((l: { id: string }) => !seen.has(l.id));
    expect(fresh.map((l: { message: string }) => l.message)).toEqual(["INFO a new request"]);
  });

  it("is the same through the dashboard's procedure, and 404 for another workspace", async () => {
    const caller = createCaller({ db, requestId: "rt", actor: tenant.actors.viewer });
    const read = await caller.runtime.logs({ deploymentId: id, query: "graph failed" });
    expect(read.logs).toHaveLength(2);
    const other = createCaller({ db, requestId: "rt", actor: tenant.actors.workspaceAdmin });
    await expect(other.runtime.logs({ deploymentId: id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await logs(id, {}, tenant.keys.workspaceAdmin)).status).toBe(404);
    expect((await state(id)).status).toBe(200);
    expect(
      (await call(`/v2/deployments/${id}/runtime_state`, { key: tenant.keys.workspaceAdmin }))
        .status,
    ).toBe(404);
  });

  it("keeps the previous container's lines after a restart", async () => {
    kube.oomKill("rt-logs-queue");
    kube.printLog("rt-logs-queue", ["INFO started again"]);
    const read = await logs(id, { limit: 1000 });
    const queue = read.body.logs.filter((l: { container: string }) => l.container === "queue");
    expect(queue).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: "queue is slow", previous: true }),
        expect.objectContaining({ message: "INFO started again", previous: false }),
      ]),
    );
  });
});

describe("runtime logs, bounded and harmless", () => {
  it("serves escape sequences harmless, long lines cut, answers within the byte budget", async () => {
    const id = await deployed("rt-bounds", "registry.example/agent:bounds");
    kube.printLog("rt-bounds", [
      "\x1b]0;pwned\x07\x1b[2J\x1b[3J ERROR after the escapes\rhidden",
      '{"level": "warning", "message": "\\u001b]2;json title\\u0007 \\u009b2J in JSON"}',
      `INFO ${"l".repeat(100_000)}`,
      ...Array.from({ length: 200 }, (_, i) => `INFO wide ${i} ${"w".repeat(10_000)}`),
    ]);
    const newest = await logs(id, { limit: 1000, order: "desc" });
    expect(newest.status, newest.text).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(newest.body.logs))).toBeLessThanOrEqual(
      LOG_ANSWER_BYTES,
    );
    // Two replicas printed 203 lines each: cut by bytes, with a cursor to read on.
    expect(newest.body.logs.length).toBeLessThan(406);
    expect(newest.body.next_offset).toEqual(expect.any(String));

    const all: { id: string; message: string; level: string }[] = [];
    let offset: string | null = null;
    for (let page = 0; page < 100; page++) {
      const res = await logs(id, { limit: 1000, order: "asc", ...(offset ? { offset } : {}) });
      expect(Buffer.byteLength(JSON.stringify(res.body.logs))).toBeLessThanOrEqual(
        LOG_ANSWER_BYTES,
      );
      if (!res.body.logs.length) break;
      all.push(...res.body.logs);
      offset = res.body.next_offset;
    }
    expect(all).toHaveLength(406);
    expect(new Set(all.map((l) => l.id)).size).toBe(406);
    const messages = all.map((l) => l.message);
    expect(messages).toContain("␛]0;pwned␇␛[2J␛[3J ERROR after the escapes␍hidden");
    expect(all.find((l) => l.message.startsWith("␛]0;pwned"))!.level).toBe("ERROR");
    expect(messages).toContain("␛]2;json title␇ \ufffd2J in JSON");
    const long = messages.find((m) => m.startsWith("INFO llll"))!;
    expect(long.length).toBeLessThanOrEqual(env.HANGAR_LOG_MAX_LINE);
    expect(long).toMatch(/^INFO l+… \[cut: 100,005 characters, [\d,]+ not kept\]$/);
    expect(messages.join("")).not.toMatch(/[^\P{Cc}\t\n]/u);

    // The dashboard's procedure: the same lines, the same bounds.
    const caller = createCaller({ db, requestId: "rt", actor: tenant.actors.viewer });
    const read = await caller.runtime.logs({ deploymentId: id, limit: 1000, order: "desc" });
    expect(Buffer.byteLength(JSON.stringify(read.logs))).toBeLessThanOrEqual(LOG_ANSWER_BYTES);
    expect(read.next_offset).toEqual(expect.any(String));
    const escaped = await caller.runtime.logs({ deploymentId: id, query: "after the escapes" });
    expect(escaped.logs.map((l) => l.message)).toEqual([
      "␛]0;pwned␇␛[2J␛[3J ERROR after the escapes␍hidden",
      "␛]0;pwned␇␛[2J␛[3J ERROR after the escapes␍hidden",
    ]);
  });
});

describe("live health", () => {
  it("a crash loop turns the deployment UNKNOWN with the reason, and READY again when it recovers", async () => {
    const id = await deployed("rt-crash", "registry.example/agent:crash");
    await waitFor(
      () => state(id),
      (r) => r.body.healthy === true,
      { what: "healthy" },
    );
    expect((await state(id)).body).toMatchObject({
      running: true,
      source: "kubernetes",
      // Two server replicas, a queue worker and the deployment's Redis.
      ready_replicas: 4,
      desired_replicas: 4,
      summary: "4/4 ready",
    });
    kube.crashLoop("rt-crash", "Error", ["Traceback: KeyError 'OPENAI_API_KEY'"]);
    const broken = await waitFor(
      () => statusOf(id),
      (s) => s === "UNKNOWN",
      {
        timeoutMs: 10_000,
        what: "UNKNOWN",
      },
    );
    expect(broken).toBe("UNKNOWN");
    const read = (await state(id)).body;
    expect(read).toMatchObject({
      healthy: false,
      reason: "CrashLoopBackOff",
      ready_replicas: 2,
      desired_replicas: 4,
      last_termination: expect.objectContaining({ reason: "Error", exit_code: 1 }),
    });
    expect(read.events[0]).toMatchObject({ reason: "BackOff" });
    expect((await call(`/v2/deployments/${id}`)).body.status).toBe("UNKNOWN");
    // The crashed run's last words are in the logs.
    const last = await logs(id, { query: "OPENAI_API_KEY" });
    expect(last.body.logs[0]).toMatchObject({ previous: true });

    kube.heal("rt-crash");
    await waitFor(
      () => statusOf(id),
      (s) => s === "READY",
      { timeoutMs: 10_000, what: "READY" },
    );
    expect((await state(id)).body).toMatchObject({ healthy: true, reason: null });
    const activity = await db.auditEvent.findMany({
      where: { targetId: id, action: "deployment.health" },
      orderBy: { createdAt: "asc" },
    });
    expect(activity.map((a) => (a.data as { healthy: boolean }).healthy)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("an OOM kill that keeps crashing says OOMKilled; a single one leaves it READY with the termination", async () => {
    const id = await deployed("rt-oom", "registry.example/agent:oom");
    await waitFor(
      () => state(id),
      (r) => r.body.healthy === true,
      { what: "healthy" },
    );
    kube.oomKill("rt-oom");
    const once = await waitFor(
      () => state(id),
      (r) => r.body.last_termination?.reason === "OOMKilled",
      { what: "the OOM kill" },
    );
    expect(once.body).toMatchObject({ healthy: true, restarts: 2 });
    expect(once.body.summary).toMatch(/^4\/4 ready · 2 restarts · OOMKilled \d+ s ago$/);
    expect(await statusOf(id)).toBe("READY");
    kube.crashLoop("rt-oom", "OOMKilled");
    await waitFor(
      () => statusOf(id),
      (s) => s === "UNKNOWN",
      { timeoutMs: 10_000 },
    );
    expect((await state(id)).body.reason).toBe("OOMKilled (CrashLoopBackOff)");
    kube.heal("rt-oom");
    await waitFor(
      () => statusOf(id),
      (s) => s === "READY",
      { timeoutMs: 10_000 },
    );
  });

  it("a drain: evicted pods, replacements no node takes → UNKNOWN; uncordoned → READY", async () => {
    const id = await deployed("rt-drain", "registry.example/agent:drain");
    await waitFor(
      () => state(id),
      (r) => r.body.healthy === true,
      { what: "healthy" },
    );
    kube.drain();
    await waitFor(
      () => statusOf(id),
      (s) => s === "UNKNOWN",
      { timeoutMs: 10_000 },
    );
    const drained = (await state(id)).body;
    expect(["Evicted", "Unschedulable"]).toContain(drained.reason);
    expect(drained.events.map((e: { reason: string }) => e.reason)).toEqual(
      expect.arrayContaining(["FailedScheduling"]),
    );
    kube.uncordon();
    await waitFor(
      () => statusOf(id),
      (s) => s === "READY",
      { timeoutMs: 10_000 },
    );
  });

  it("uses one watch per kind (and events per namespace), not a poll per deployment", () => {
    // pods, deployments, and the events of the one namespace this workspace's deployments use.
    expect(kube.watchCount()).toBe(3);
  });
});
