import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startListenerProcess, type RunningListener } from "../../testing/listener";
import { startServer, type RunningServer } from "../../testing/server";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Listeners (contract 11): the five routes, their credential, and the protocol driven by real
// listener processes (scripts/listener.ts) against a self-hosted server of our own (on the run's
// database; the run's worker hands revisions over) and the fake Kubernetes API server.

const LISTENER_TIMING = {
  HANGAR_LISTENER_LEASE_SECONDS: "2",
  HANGAR_LISTENER_POLL_SECONDS: "1",
  HANGAR_LISTENER_OFFLINE_SECONDS: "3",
};

const db = testDb();
let tenant: Tenant;
let stranger: Tenant;
let kube: FakeKubeApi;
let server: RunningServer;
const listeners: RunningListener[] = [];

beforeAll(async () => {
  [tenant, stranger] = [await createTenant(), await createTenant()];
  kube = await startFakeKubeApi();
  server = await startServer({
    ...inject("testEnv"),
    ...LISTENER_TIMING,
    HANGAR_MODE: "self_hosted",
  });
});
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.kill()));
  await server?.stop();
  await kube?.stop();
});

const call = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  api(path, { key, baseUrl: server.url, ...init });
const bearer = (token: string, path: string, body: unknown) =>
  api(path, {
    baseUrl: server.url,
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}` },
  });

let made = 0;
async function createListener(namespaces = ["agents"]) {
  const res = await call(tenant.keys.admin, "/v2/listeners", {
    method: "POST",
    body: {
      compute_type: "k8s",
      compute_id: `cluster-${made++}`,
      compute_config: { k8s_namespaces: namespaces },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; token: string; compute_id: string };
}

async function runListener(token: string) {
  const running = await startListenerProcess({
    HANGAR_URL: server.url,
    HANGAR_LISTENER_TOKEN: token,
    KUBECONFIG: kube.kubeconfig(),
    HANGAR_ROLLOUT_POLL_SECONDS: "0.2",
    HANGAR_ROLLOUT_TIMEOUT_SECONDS: "60",
  });
  listeners.push(running);
  return running;
}

async function createDeployment(name: string, listenerId: string, image: string) {
  const res = await call(tenant.keys.editor, "/v2/deployments", {
    method: "POST",
    body: {
      name,
      source: "external_container",
      source_config: { listener_id: listenerId, listener_config: { k8s_namespace: "agents" } },
      source_revision_config: { image_uri: image },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; latest_revision_id: string };
}

/** Server-side applies of the deployment's server Deployment running `image`. */
const appliesOf = (image: string) =>
  kube.requests.filter(
    (r) =>
      r.method === "PATCH" &&
      r.path === SERVER_PATH &&
      JSON.stringify(r.body).includes(`"image":"${image}"`),
  ).length;
const SERVER_PATH = "/apis/apps/v1/namespaces/agents/deployments/remote-agent";

describe("listener routes", () => {
  it("create, read, list, patch and delete; duplicate compute_id 409; roles", async () => {
    const created = await createListener(["agents", "tools"]);
    expect(created).toMatchObject({
      compute_type: "k8s",
      compute_config: { k8s_namespaces: ["agents", "tools"] },
      version: null,
      last_seen_at: null,
      status: "offline",
    });
    expect(created.token).toMatch(/^hgl_/);
    const stored = await db.listener.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const got = await call(tenant.keys.viewer, `/v2/listeners/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("token");
    const page = await call(tenant.keys.viewer, "/v2/listeners?limit=1");
    expect(page.body).toEqual({
      resources: [expect.objectContaining({ id: created.id })],
      offset: 1,
    });

    const patched = await call(tenant.keys.admin, `/v2/listeners/${created.id}`, {
      method: "PATCH",
      body: { version: "1.2.0", compute_config: { k8s_namespaces: ["agents"] } },
    });
    expect(patched.body).toMatchObject({
      version: "1.2.0",
      compute_config: { k8s_namespaces: ["agents"] },
    });

    const dup = await call(tenant.keys.admin, "/v2/listeners", {
      method: "POST",
      body: {
        compute_type: "k8s",
        compute_id: created.compute_id,
        compute_config: { k8s_namespaces: ["x"] },
      },
    });
    expect(dup.status).toBe(409);
    const bad = await call(tenant.keys.admin, "/v2/listeners", {
      method: "POST",
      body: {
        compute_type: "ecs",
        compute_id: "c",
        compute_config: { k8s_namespaces: ["Bad_NS"] },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(
      expect.arrayContaining(["body.compute_type", "body.compute_config.k8s_namespaces.0"]),
    );
    for (const role of ["editor", "viewer"] as const) {
      const denied = await call(tenant.keys[role], `/v2/listeners/${created.id}`, {
        method: "DELETE",
      });
      expect(denied.status, role).toBe(403);
    }

    // In use: 409 until its deployment is gone.
    const deployment = await createDeployment("in-use", created.id, "registry.example/in-use:1");
    const busy = await call(tenant.keys.admin, `/v2/listeners/${created.id}`, { method: "DELETE" });
    expect(busy.status).toBe(409);
    await call(tenant.keys.admin, `/v2/deployments/${deployment.id}`, { method: "DELETE" });
    await waitFor(
      () => call(tenant.keys.admin, `/v2/listeners/${created.id}`, { method: "DELETE" }),
      (res) => res.status === 204,
      { what: "the listener's deletion once its deployment is gone" },
    );
    expect((await call(tenant.keys.admin, `/v2/listeners/${created.id}`)).status).toBe(404);
  });

  it("another workspace's or organization's listener is 404", async () => {
    const { id } = await createListener();
    const cases = [
      ["GET", tenant.keys.workspaceAdmin],
      ["PATCH", tenant.keys.workspaceAdmin],
      ["DELETE", tenant.keys.workspaceAdmin],
      ["GET", stranger.keys.admin],
      ["PATCH", stranger.keys.admin],
      ["DELETE", stranger.keys.admin],
    ] as const;
    for (const [method, key] of cases) {
      const res = await call(key, `/v2/listeners/${id}`, {
        method,
        body: method === "PATCH" ? { version: "x" } : undefined,
      });
      expect(res.status, `${method} ${key === stranger.keys.admin ? "org" : "ws"}`).toBe(404);
      expect(res.body.detail).toBe(`Listener ${id} not found.`);
    }
    const listed = await call(stranger.keys.admin, "/v2/listeners");
    expect(listed.body.resources).toEqual([]);
  });

  it("a managed installation answers 403 on every listener route", async () => {
    const managed = await createTenant();
    const id = "00000000-0000-4000-8000-0000000000aa";
    const cases = [
      ["GET", "/v2/listeners"],
      ["POST", "/v2/listeners"],
      ["GET", `/v2/listeners/${id}`],
      ["PATCH", `/v2/listeners/${id}`],
      ["DELETE", `/v2/listeners/${id}`],
    ] as const;
    for (const [method, path] of cases) {
      const res = await api(path, {
        key: managed.keys.admin,
        method,
        body:
          method === "POST"
            ? { compute_type: "k8s", compute_id: "c", compute_config: { k8s_namespaces: ["a"] } }
            : method === "PATCH"
              ? { version: "1" }
              : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toContain("self_hosted");
    }
  });

  it("a listener token calls only the listener protocol", async () => {
    const { id, token } = await createListener();
    const other = [
      ["GET", "/v2/deployments"],
      ["GET", "/v2/listeners"],
      ["GET", `/v2/listeners/${id}`],
      ["DELETE", `/v2/listeners/${id}`],
      ["GET", "/v2/tag-keys"],
    ] as const;
    for (const [method, path] of other) {
      const asBearer = await api(path, {
        baseUrl: server.url,
        method,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(asBearer.status, `${method} ${path}`).toBe(403);
      const asKey = await call(token, path, { method });
      expect(asKey.status, `${method} ${path} as X-Api-Key`).toBe(403);
    }
    const work = await bearer(token, "/v2/listener/work", { replica_id: "probe", wait_seconds: 0 });
    expect(work.status, work.text).toBe(200);
    expect(work.body).toEqual({ work: null });
    // API keys and unknown tokens get nothing from the protocol.
    expect(
      (await call(tenant.keys.admin, "/v2/listener/work", { method: "POST", body: {} })).status,
    ).toBe(401);
    expect((await bearer("hgl_unknown", "/v2/listener/work", { replica_id: "p" })).status).toBe(
      401,
    );
  });
});

describe("listener processes", () => {
  it("apply, report and resume revisions; replicas apply each once; offline is UNKNOWN", async () => {
    const listener = await createListener();
    const [first, second] = await Promise.all([
      runListener(listener.token),
      runListener(listener.token),
    ]);

    // Through the listener to the cluster and back to DEPLOYED.
    const d = await createDeployment("remote-agent", listener.id, "registry.example/remote:1");
    const revision = await waitForRevision(d.latest_revision_id, undefined, {
      db,
      timeoutMs: 60_000,
    }).catch((e) => {
      console.log(first.output().slice(-3000), second.output().slice(-3000));
      throw e;
    });
    expect(revision).toMatchObject({
      status: "DEPLOYED",
      remoteReconciled: true,
      runtime: "kubernetes",
    });
    const rev = await call(tenant.keys.viewer, `/v2/deployments/${d.id}/revisions/${revision.id}`);
    expect(rev.body).toMatchObject({ status: "DEPLOYED", remote_reconciled: true });
    const dep = await call(tenant.keys.viewer, `/v2/deployments/${d.id}`);
    expect(dep.body).toMatchObject({ status: "READY", active_revision_id: revision.id });
    expect(kube.objects.has(SERVER_PATH)).toBe(true);
    const logs = await call(
      tenant.keys.viewer,
      `/v2/deployments/${d.id}/revisions/${revision.id}/logs`,
    );
    expect(JSON.stringify(logs.body)).toContain("Applied Deployment agents/remote-agent");

    // A PATCH reaches the cluster; each revision is applied by one replica only.
    for (const tag of [2, 3]) {
      const patched = await call(tenant.keys.editor, `/v2/deployments/${d.id}`, {
        method: "PATCH",
        body: { source_revision_config: { image_uri: `registry.example/remote:${tag}` } },
      });
      expect(patched.status, patched.text).toBe(200);
      const next = await waitForRevision(patched.body.latest_revision_id, undefined, {
        db,
        timeoutMs: 60_000,
      });
      expect(next.status).toBe("DEPLOYED");
    }
    expect(JSON.stringify(kube.objects.get(SERVER_PATH))).toContain("registry.example/remote:3");
    for (const tag of [1, 2, 3])
      expect(appliesOf(`registry.example/remote:${tag}`), `:${tag}`).toBe(1);

    // Killed mid-apply (its rollout never finishes): the other replica resumes the revision once
    // the lease expires.
    kube.setRollout("ready", { readyAfterReads: 1_000_000 });
    const patched = await call(tenant.keys.editor, `/v2/deployments/${d.id}`, {
      method: "PATCH",
      body: { source_revision_config: { image_uri: "registry.example/remote:4" } },
    });
    const stuckId = patched.body.latest_revision_id as string;
    const leased = await waitFor(
      () => db.revision.findUniqueOrThrow({ where: { id: stuckId } }),
      (r) => !!r.leaseOwner && appliesOf("registry.example/remote:4") === 1,
      { what: "the revision applied and waiting for its rollout", timeoutMs: 60_000 },
    );
    const holder = [first, second].find((l) => l.output().includes(`"revision_id":"${stuckId}"`))!;
    await holder.kill();
    kube.setRollout("ready");
    const resumed = await waitForRevision(stuckId, undefined, { db, timeoutMs: 60_000 });
    expect(resumed).toMatchObject({ status: "DEPLOYED", remoteReconciled: true });
    expect(resumed.leaseOwner).toBeNull();
    const lines = (await db.revisionLog.findMany({ where: { revisionId: stuckId } })).map(
      (l) => l.line,
    );
    expect(lines.join("\n")).toContain(`(the lease of ${leased.leaseOwner} expired)`);

    // Offline: no replica calls for HANGAR_LISTENER_OFFLINE_SECONDS -> offline, deployment UNKNOWN.
    await Promise.all([first.stop(), second.stop()]);
    await waitFor(
      async () => ({
        listener: (await call(tenant.keys.viewer, `/v2/listeners/${listener.id}`)).body.status,
        deployment: (await call(tenant.keys.viewer, `/v2/deployments/${d.id}`)).body.status,
      }),
      (s) => s.listener === "offline" && s.deployment === "UNKNOWN",
      { what: "the listener offline and its deployment UNKNOWN" },
    );
    await runListener(listener.token);
    await waitFor(
      async () => (await call(tenant.keys.viewer, `/v2/deployments/${d.id}`)).body.status,
      (s) => s === "READY",
      { what: "the deployment READY again" },
    );
    expect((await call(tenant.keys.viewer, `/v2/listeners/${listener.id}`)).body.status).toBe(
      "online",
    );
  }, 300_000);
});
