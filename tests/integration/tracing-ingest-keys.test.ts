import { randomUUID } from "node:crypto";
import { context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { Client } from "langsmith";
import { traceable } from "langsmith/traceable";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ingestKeyOf } from "../../src/server/auth/ingest-keys";
import { createDb, type Db } from "../../src/server/db";
import { createTestDatabase } from "../../testing/database";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startListenerProcess, type RunningListener } from "../../testing/listener";
import {
  startServer,
  startWorkerProcess,
  type RunningServer,
  type RunningWorker,
} from "../../testing/server";
import { uniqueName } from "../helpers/deployments";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sdkRun } from "../helpers/tracing";

// A deployment's tracing ingest key (contract 15.7), end to end: a server, a worker applying to
// the fake Kubernetes API and a listener applying to another, all on a database of their own.
// The pods' env names the endpoint, the project and (through the `<name>-tracing` Secret) the
// key; the unmodified tracing SDK and an OTel exporter, configured from that env alone, write
// into the deployment's project; the key reads nothing, writes nowhere else, rotates with a
// redeploy and dies with the deployment.

let database: { url: string; drop: () => Promise<void> };
let db: Db;
let tenant: Tenant;
let stranger: Tenant;
let kube: FakeKubeApi;
let remoteKube: FakeKubeApi;
let server: RunningServer;
let worker: RunningWorker;
const listeners: RunningListener[] = [];

beforeAll(async () => {
  database = await createTestDatabase("hangar_ingest_keys");
  db = createDb(database.url, 3);
  [tenant, stranger] = [await createTenant(db), await createTenant(db)];
  [kube, remoteKube] = [await startFakeKubeApi(), await startFakeKubeApi()];
  server = await startServer({
    ...inject("testEnv"),
    DATABASE_URL: database.url,
    // external_container deployments, applied by the worker or by a listener.
    HANGAR_MODE: "self_hosted",
    HANGAR_LISTENER_LEASE_SECONDS: "2",
    HANGAR_LISTENER_POLL_SECONDS: "1",
    HANGAR_LISTENER_OFFLINE_SECONDS: "3",
  });
  worker = await startWorkerProcess({
    DATABASE_URL: database.url,
    HANGAR_KUBECONFIG: kube.kubeconfig(),
    HANGAR_ENCRYPTION_KEY: process.env.HANGAR_ENCRYPTION_KEY!,
    HANGAR_ROLLOUT_TIMEOUT_SECONDS: "30",
    HANGAR_QUEUE_POLL_SECONDS: "0.5",
    // Pods reach Hangar here (the test's server), not at a public URL.
    HANGAR_TRACING_ENDPOINT: `${server.url}/api/v1`,
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(listeners.map((l) => l.kill()));
  await worker?.stop();
  await server?.stop();
  await Promise.all([kube?.stop(), remoteKube?.stop()]);
  await db?.$disconnect();
  await database?.drop();
});

const call = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  api(path, { key, baseUrl: server.url, ...init });

type EnvEntry = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
};

/** The Secret as the cluster keeps it (stringData as applied, or base64 data). */
function secretOf(cluster: FakeKubeApi, namespace: string, name: string): Record<string, string> {
  const secret = cluster.objects.get(`/api/v1/namespaces/${namespace}/secrets/${name}`) as
    { stringData?: Record<string, string>; data?: Record<string, string> } | undefined;
  if (!secret) throw new Error(`No Secret ${namespace}/${name}`);
  return {
    ...Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString()]),
    ),
    ...secret.stringData,
  };
}

/**
 * The environment a pod of `deployment` starts with, read from the cluster's pods (GET
 * /api/v1/namespaces/.../pods) and resolved as the kubelet does (secretKeyRef from the Secret).
 */
async function podEnv(
  cluster: FakeKubeApi,
  namespace: string,
  deployment: string,
): Promise<{ env: Record<string, string>; entries: EnvEntry[] }> {
  const res = await fetch(`${cluster.url}/api/v1/namespaces/${namespace}/pods`, {
    headers: { authorization: `Bearer ${cluster.token}` },
  });
  expect(res.status).toBe(200);
  const pods = ((await res.json()) as { items: Record<string, any>[] }).items.filter(
    (p) => p.metadata.labels["app.kubernetes.io/instance"] === deployment,
  );
  const server = pods.find((p) => p.metadata.labels["app.kubernetes.io/component"] === "server");
  expect(server, `a server pod of ${deployment}`).toBeDefined();
  const entries = server!.spec.containers[0].env as EnvEntry[];
  const env: Record<string, string> = {};
  for (const e of entries) {
    const ref = e.valueFrom?.secretKeyRef;
    env[e.name] = ref ? secretOf(cluster, namespace, ref.name)[ref.key]! : e.value!;
  }
  // Every app process (the queue too) gets the same tracing env.
  const queue = pods.find((p) => p.metadata.labels["app.kubernetes.io/component"] === "queue");
  expect(queue!.spec.containers[0].env.map((e: EnvEntry) => e.name)).toEqual(
    expect.arrayContaining(["LANGSMITH_API_KEY", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]),
  );
  return { env, entries };
}

async function deploy(name: string, sourceConfig: Record<string, unknown> = {}) {
  const res = await call(tenant.keys.editor, "/v2/deployments", {
    method: "POST",
    body: {
      name,
      source: "external_container",
      source_config: sourceConfig,
      source_revision_config: { image_uri: "registry.example/agent:1" },
    },
  });
  expect(res.status, res.text).toBe(201);
  const revision = await waitForRevision(res.body.latest_revision_id, undefined, {
    db,
    timeoutMs: 60_000,
  });
  expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
  return res.body as { id: string; name: string; latest_revision_id: string };
}

/** The runs of a project, read with the workspace's editor key (ingest keys cannot read). */
async function runsOf(projectName: string, key = tenant.keys.editor) {
  const sessions = await call(key, `/api/v1/sessions?name=${encodeURIComponent(projectName)}`);
  expect(sessions.status).toBe(200);
  if (sessions.body.length === 0) return [];
  const query = await call(key, "/api/v1/runs/query", {
    method: "POST",
    body: { session: [sessions.body[0].id], limit: 100 },
  });
  expect(query.status, query.text).toBe(200);
  return query.body.runs as Record<string, any>[];
}

const forbidden = (res: { status: number; body: any }) => {
  expect(res.status).toBe(403);
  expect(res.body).toEqual({
    detail: "A deployment's ingest key can only write runs into its own project",
    code: "forbidden",
  });
};

const agent = { name: "", id: "", namespace: "", key: "", env: {} as Record<string, string> };

describe("a deployment applied by Hangar's worker", () => {
  it("runs pods whose env names the endpoint, the project and the key (from its Secret)", async () => {
    const deployment = await deploy(uniqueName("traced"));
    Object.assign(agent, {
      name: deployment.name,
      id: deployment.id,
      namespace: `hangar-${tenant.workspaceId}`,
    });
    const { env, entries } = await podEnv(kube, agent.namespace, agent.name);
    agent.env = env;
    agent.key = env.LANGSMITH_API_KEY!;
    expect(agent.key).toMatch(/^hgt_[A-Za-z0-9_-]{43}$/);
    expect(env).toMatchObject({
      LANGSMITH_TRACING: "true",
      LANGSMITH_ENDPOINT: `${server.url}/api/v1`,
      LANGSMITH_PROJECT: agent.name,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${server.url}/api/v1/otel/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: `x-api-key=${agent.key},Langsmith-Project=${agent.name}`,
    });
    // The key itself is only in the Secret: the pod spec refers to it.
    expect(entries.find((e) => e.name === "LANGSMITH_API_KEY")).toEqual({
      name: "LANGSMITH_API_KEY",
      valueFrom: { secretKeyRef: { name: `${agent.name}-tracing`, key: "api_key" } },
    });
    const deploymentObject = kube.objects.get(
      `/apis/apps/v1/namespaces/${agent.namespace}/deployments/${agent.name}`,
    );
    expect(JSON.stringify(deploymentObject)).not.toContain(agent.key);
    // Hangar keeps neither the key nor anything it could be read back from.
    const revision = await db.revision.findUniqueOrThrow({
      where: { id: deployment.latest_revision_id },
    });
    expect(JSON.stringify(revision)).not.toContain(agent.key);
    const stored = await db.tracingIngestKey.findUniqueOrThrow({
      where: { revisionId: revision.id },
    });
    expect(JSON.stringify(stored)).not.toContain(agent.key);
    expect(stored.prefix).toBe(agent.key.slice(0, 12));
    // Derived from the installation's encryption key and the revision: a retried deploy step
    // renders the same Secret.
    expect(ingestKeyOf(revision.id).key).toBe(agent.key);
  });

  it("the tracing SDK, configured by that env alone, writes into the deployment's project", async () => {
    const client = new Client({
      apiUrl: agent.env.LANGSMITH_ENDPOINT,
      apiKey: agent.env.LANGSMITH_API_KEY,
      timeout_ms: 20_000,
    });
    const options = { client, project_name: agent.env.LANGSMITH_PROJECT, tracingEnabled: true };
    const llm = traceable(async (q: string) => ({ answer: q.toUpperCase() }), {
      ...options,
      name: "llm",
      run_type: "llm",
    });
    const chain = traceable(async (q: string) => llm(q), { ...options, name: "agent" });
    await chain("hello");
    await client.awaitPendingTraceBatches();
    const runs = await runsOf(agent.name);
    expect(runs.map((r) => r.name).sort()).toEqual(["agent", "llm"]);
    expect(runs.find((r) => r.name === "agent")).toMatchObject({
      outputs: { answer: "HELLO" },
      status: "success",
    });
  });

  it("an OpenTelemetry exporter, configured by that env alone, writes into it too", async () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      // A service name of its own: with an ingest key it is no choice of project.
      resource: resourceFromAttributes({ "service.name": "agent-service" }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer("ingest-key-test");
    const root = tracer.startSpan("otel-root");
    tracer.startSpan("otel-child", {}, trace.setSpan(context.active(), root)).end();
    root.end();
    const spans: ReadableSpan[] = memory.getFinishedSpans();

    // The exporter reads its URL and headers from the environment when it is made.
    const otel = Object.keys(agent.env).filter((name) => name.startsWith("OTEL_"));
    const saved = new Map(otel.map((name) => [name, process.env[name]]));
    for (const name of otel) process.env[name] = agent.env[name];
    let exporter: OTLPTraceExporter;
    try {
      exporter = new OTLPTraceExporter();
    } finally {
      // Test files share this process: leave its environment as it was.
      for (const [name, value] of saved)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    const result = await new Promise<{ code: number; error?: Error }>((resolve) =>
      exporter.export(spans, resolve),
    );
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(0);
    const runs = await runsOf(agent.name);
    expect(runs.map((r) => r.name)).toEqual(expect.arrayContaining(["otel-root", "otel-child"]));
    expect(await runsOf("agent-service")).toEqual([]);
  });
});

describe("what the ingest key may not do", () => {
  it("is rate-limited as a key (its own bucket, the per-key row), not as an anonymous caller", async () => {
    const limitOf = async (key: string) =>
      (
        await call(key, "/api/v1/runs", {
          method: "POST",
          body: sdkRun({ session_name: undefined }),
        })
      ).headers.get("x-ratelimit-limit");
    const asKey = await limitOf(tenant.keys.editor);
    expect(asKey).toMatch(/^\d+$/);
    expect(await limitOf(agent.key)).toBe(asKey);
    expect(await limitOf(`hgt_${"x".repeat(43)}`)).not.toBe(asKey);
  });

  it("reads nothing and makes no project or feedback: 403", async () => {
    const [run] = await runsOf(agent.name);
    const key = agent.key;
    forbidden(await call(key, `/api/v1/runs/${run!.id}`));
    forbidden(await call(key, "/api/v1/runs/query", { method: "POST", body: {} }));
    forbidden(await call(key, "/api/v1/sessions"));
    forbidden(await call(key, `/api/v1/sessions/${run!.session_id}`));
    forbidden(await call(key, "/api/v1/sessions", { method: "POST", body: { name: "new" } }));
    forbidden(await call(key, "/api/v1/feedback"));
    forbidden(await call(key, `/api/v1/feedback/${randomUUID()}`));
    forbidden(
      await call(key, "/api/v1/feedback", {
        method: "POST",
        body: { run_id: run!.id, key: "correctness", score: 1 },
      }),
    );
    // The SDK's /info stays public.
    expect((await call(key, "/api/v1/info")).status).toBe(200);
  });

  it("is no key at all on the other doors: 401", async () => {
    for (const path of [
      "/v2/deployments",
      `/v2/deployments/${agent.id}`,
      "/v2/tag-keys",
      "/v2/listeners",
    ]) {
      const res = await call(agent.key, path);
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ detail: "Invalid API key", code: "unauthorized" });
    }
  });

  it("writes into no other project, of its workspace or another: 403 per run", async () => {
    const elsewhere = await call(tenant.keys.editor, "/api/v1/sessions", {
      method: "POST",
      body: { name: uniqueName("elsewhere") },
    });
    const foreign = await call(stranger.keys.editor, "/api/v1/sessions", {
      method: "POST",
      body: { name: uniqueName("foreign") },
    });
    expect([elsewhere.status, foreign.status]).toEqual([201, 201]);
    for (const target of [
      { session_name: elsewhere.body.name },
      { session_id: elsewhere.body.id },
      { session_id: foreign.body.id },
      { session_name: "default" },
    ]) {
      const res = await call(agent.key, "/api/v1/runs", {
        method: "POST",
        body: sdkRun({ session_name: undefined, ...target }),
      });
      expect(res.status, JSON.stringify(target)).toBe(403);
      expect(res.body.code).toBe("forbidden");
      expect(res.body.detail).toMatch(/^This ingest key writes only into project /);
    }
    // In a batch, that run alone is refused; its own project's run is stored.
    const mine = sdkRun({ session_name: agent.name, name: "batched" });
    const batch = await call(agent.key, "/api/v1/runs/batch", {
      method: "POST",
      body: { post: [mine, sdkRun({ session_name: elsewhere.body.name })] },
    });
    expect(batch.status, batch.text).toBe(422);
    expect(batch.body.detail).toEqual([
      {
        loc: ["body", "post", 1, "session_name"],
        msg: `This ingest key writes only into project ${agent.name}, not ${elsewhere.body.name}`,
        type: "project_forbidden",
      },
    ]);
    expect(await runsOf(elsewhere.body.name)).toEqual([]);
    expect(await runsOf(foreign.body.name, stranger.keys.editor)).toEqual([]);
    // A run naming no project is the key's project's (not `default`).
    const unnamed = sdkRun({ session_name: undefined, name: "unnamed" });
    expect((await call(agent.key, "/api/v1/runs", { method: "POST", body: unnamed })).status).toBe(
      202,
    );
    const names = (await runsOf(agent.name)).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["batched", "unnamed"]));
  });

  it("never overwrites a run of another project", async () => {
    const other = uniqueName("other-project");
    const run = sdkRun({ session_name: other, name: "theirs" });
    expect(
      (await call(tenant.keys.editor, "/api/v1/runs", { method: "POST", body: run })).status,
    ).toBe(202);
    const post = await call(agent.key, "/api/v1/runs", {
      method: "POST",
      body: { ...run, session_name: undefined, name: "mine" },
    });
    expect(post.status).toBe(409);
    const patch = await call(agent.key, `/api/v1/runs/${run.id}`, {
      method: "PATCH",
      body: { dotted_order: run.dotted_order, outputs: { taken: true } },
    });
    expect(patch.status).toBe(409);
    // Without its time, the run is as unknown to the key as any other: 404.
    const blind = await call(agent.key, `/api/v1/runs/${run.id}`, {
      method: "PATCH",
      body: { outputs: { taken: true } },
    });
    expect(blind.status).toBe(404);
    const [stored] = await runsOf(other);
    expect(stored).toMatchObject({ id: run.id, name: "theirs", outputs: null });
  });

  it("refuses feedback parts of a multipart batch and stores its runs", async () => {
    const run = sdkRun({ session_name: undefined, name: "multipart-run" });
    const boundary = `----ingest${randomUUID()}`;
    const part = (name: string, data: unknown) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(data)}\r\n`;
    const feedbackId = randomUUID();
    const res = await fetch(`${server.url}/api/v1/runs/multipart`, {
      method: "POST",
      headers: {
        "x-api-key": agent.key,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body:
        part(`post.${run.id}`, run) +
        part(`feedback.${feedbackId}`, { id: feedbackId, run_id: run.id, key: "k", score: 1 }) +
        `--${boundary}--\r\n`,
    });
    const body = await res.json();
    expect(res.status).toBe(422);
    expect(body.detail).toEqual([
      {
        loc: ["body", `feedback.${feedbackId}`],
        msg: "A deployment's ingest key cannot write feedback",
        type: "forbidden",
      },
    ]);
    expect((await runsOf(agent.name)).map((r) => r.name)).toContain("multipart-run");
    expect(await db.tracingFeedback.count({ where: { id: feedbackId } })).toBe(0);
  });
});

describe("rotation and deletion", () => {
  it("a redeploy rotates the key: the old one is refused once the new revision is live", async () => {
    const old = agent.key;
    const patched = await call(tenant.keys.editor, `/v2/deployments/${agent.id}`, {
      method: "PATCH",
      body: { source_revision_config: { image_uri: "registry.example/agent:2" } },
    });
    expect(patched.status, patched.text).toBe(200);
    const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
      db,
      timeoutMs: 60_000,
    });
    expect(revision.status).toBe("DEPLOYED");
    const { env } = await podEnv(kube, agent.namespace, agent.name);
    expect(env.LANGSMITH_API_KEY).toMatch(/^hgt_/);
    expect(env.LANGSMITH_API_KEY).not.toBe(old);
    agent.key = env.LANGSMITH_API_KEY!;

    const before = await call(old, "/api/v1/runs", { method: "POST", body: sdkRun() });
    expect(before.status).toBe(401);
    expect(before.body).toEqual({ detail: "Invalid API key", code: "unauthorized" });
    const fresh = sdkRun({ session_name: undefined, name: "after-rotation" });
    expect((await call(agent.key, "/api/v1/runs", { method: "POST", body: fresh })).status).toBe(
      202,
    );
  });

  it("a revision that fails to deploy leaves the live revision's key working", async () => {
    kube.setRollout("crash_loop", { image: "registry.example/agent:3" });
    try {
      const patched = await call(tenant.keys.editor, `/v2/deployments/${agent.id}`, {
        method: "PATCH",
        body: { source_revision_config: { image_uri: "registry.example/agent:3" } },
      });
      expect(patched.status, patched.text).toBe(200);
      const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
        db,
        timeoutMs: 60_000,
      });
      expect(revision.status).toBe("DEPLOY_FAILED");
    } finally {
      kube.setRollout("ready");
    }
    const run = sdkRun({ session_name: undefined, name: "after-failed-deploy" });
    expect((await call(agent.key, "/api/v1/runs", { method: "POST", body: run })).status).toBe(202);
  });

  it("deleting the deployment kills its key at once", async () => {
    const res = await call(tenant.keys.editor, `/v2/deployments/${agent.id}`, {
      method: "DELETE",
    });
    expect(res.status, res.text).toBe(204);
    const after = await call(agent.key, "/api/v1/runs", {
      method: "POST",
      body: sdkRun({ session_name: undefined }),
    });
    expect(after.status).toBe(401);
    await waitFor(
      () => db.deployment.findUnique({ where: { id: agent.id } }),
      (d) => d === null,
      { timeoutMs: 30_000, what: "the deployment to be removed" },
    );
    expect(await db.tracingIngestKey.count({ where: { deploymentId: agent.id } })).toBe(0);
    // Its project and runs stay (contract 15.2), readable by the workspace's keys.
    expect((await runsOf(agent.name)).length).toBeGreaterThan(0);
  });
});

describe("a deployment applied by a listener", () => {
  it("gets the same env in its cluster, and its key writes into its project", async () => {
    const created = await call(tenant.keys.admin, "/v2/listeners", {
      method: "POST",
      body: {
        compute_type: "k8s",
        compute_id: uniqueName("cluster"),
        compute_config: { k8s_namespaces: ["agents"] },
      },
    });
    expect(created.status, created.text).toBe(201);
    listeners.push(
      await startListenerProcess({
        HANGAR_URL: server.url,
        HANGAR_LISTENER_TOKEN: created.body.token,
        KUBECONFIG: remoteKube.kubeconfig(),
        HANGAR_ROLLOUT_POLL_SECONDS: "0.2",
        HANGAR_ROLLOUT_TIMEOUT_SECONDS: "60",
      }),
    );
    const deployment = await deploy(uniqueName("remote-traced"), {
      listener_id: created.body.id,
      listener_config: { k8s_namespace: "agents" },
    });
    const { env } = await podEnv(remoteKube, "agents", deployment.name);
    expect(env).toMatchObject({
      LANGSMITH_ENDPOINT: `${server.url}/api/v1`,
      LANGSMITH_PROJECT: deployment.name,
      LANGSMITH_API_KEY: expect.stringMatching(/^hgt_/),
    });
    // Hangar's own cluster got nothing of it.
    expect([...kube.objects.keys()].some((p) => p.includes(deployment.name))).toBe(false);
    const run = sdkRun({ session_name: deployment.name, name: "remote-run" });
    const res = await call(env.LANGSMITH_API_KEY!, "/api/v1/runs", { method: "POST", body: run });
    expect(res.status, res.text).toBe(202);
    expect((await runsOf(deployment.name)).map((r) => r.name)).toEqual(["remote-run"]);
  });
});
