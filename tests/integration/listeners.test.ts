import { describe, expect, it } from "vitest";
import { api } from "../helpers/http";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, testDb } from "../helpers/fixtures";
import { listenerHarness, SERVER_PATH } from "../helpers/listeners";

// Listeners (contract 14): the five routes, their credential, and the protocol driven by real
// listener processes (scripts/listener.ts) against a self-hosted server of our own (on the run's
// database; the run's worker hands revisions over) and the fake Kubernetes API server.
// Deleting their deployments: listener-deletions.test.ts.

const db = testDb();
const h = listenerHarness();
const { call, bearer, createListener, runListener, createDeployment } = h;

/** Server-side applies of the deployment's server Deployment running `image`. */
const appliesOf = (image: string) =>
  h.kube.requests.filter(
    (r) =>
      r.method === "PATCH" &&
      r.path === SERVER_PATH &&
      JSON.stringify(r.body).includes(`"image":"${image}"`),
  ).length;

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

    const got = await call(h.tenant.keys.viewer, `/v2/listeners/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("token");
    const page = await call(h.tenant.keys.viewer, "/v2/listeners?limit=1");
    expect(page.body).toEqual({
      resources: [expect.objectContaining({ id: created.id })],
      offset: 1,
    });

    const patched = await call(h.tenant.keys.admin, `/v2/listeners/${created.id}`, {
      method: "PATCH",
      body: { version: "1.2.0", compute_config: { k8s_namespaces: ["agents"] } },
    });
    expect(patched.body).toMatchObject({
      version: "1.2.0",
      compute_config: { k8s_namespaces: ["agents"] },
    });

    const dup = await call(h.tenant.keys.admin, "/v2/listeners", {
      method: "POST",
      body: {
        compute_type: "k8s",
        compute_id: created.compute_id,
        compute_config: { k8s_namespaces: ["x"] },
      },
    });
    expect(dup.status).toBe(409);
    const bad = await call(h.tenant.keys.admin, "/v2/listeners", {
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
      const denied = await call(h.tenant.keys[role], `/v2/listeners/${created.id}`, {
        method: "DELETE",
      });
      expect(denied.status, role).toBe(403);
    }

    // In use: 409 (until its deployment is gone: listener-deletions.test.ts); unused: 204.
    await createDeployment("in-use", created.id, "registry.example/in-use:1");
    const busy = await call(h.tenant.keys.admin, `/v2/listeners/${created.id}`, {
      method: "DELETE",
    });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe(
      `Listener ${created.id} is used by 1 deployment; delete or reassign them first.`,
    );
    const unused = await createListener();
    const gone = await call(h.tenant.keys.admin, `/v2/listeners/${unused.id}`, {
      method: "DELETE",
    });
    expect(gone.status).toBe(204);
    expect((await call(h.tenant.keys.admin, `/v2/listeners/${unused.id}`)).status).toBe(404);
  });

  it("another workspace's or organization's listener is 404", async () => {
    const { id } = await createListener();
    const cases = [
      ["GET", h.tenant.keys.workspaceAdmin],
      ["PATCH", h.tenant.keys.workspaceAdmin],
      ["DELETE", h.tenant.keys.workspaceAdmin],
      ["GET", h.stranger.keys.admin],
      ["PATCH", h.stranger.keys.admin],
      ["DELETE", h.stranger.keys.admin],
    ] as const;
    for (const [method, key] of cases) {
      const res = await call(key, `/v2/listeners/${id}`, {
        method,
        body: method === "PATCH" ? { version: "x" } : undefined,
      });
      expect(res.status, `${method} ${key === h.stranger.keys.admin ? "org" : "ws"}`).toBe(404);
      expect(res.body.detail).toBe(`Listener ${id} not found.`);
    }
    const listed = await call(h.stranger.keys.admin, "/v2/listeners");
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
        baseUrl: h.server.url,
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
      (await call(h.tenant.keys.admin, "/v2/listener/work", { method: "POST", body: {} })).status,
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
    const rev = await call(
      h.tenant.keys.viewer,
      `/v2/deployments/${d.id}/revisions/${revision.id}`,
    );
    expect(rev.body).toMatchObject({ status: "DEPLOYED", remote_reconciled: true });
    const dep = await call(h.tenant.keys.viewer, `/v2/deployments/${d.id}`);
    expect(dep.body).toMatchObject({ status: "READY", active_revision_id: revision.id });
    expect(h.kube.objects.has(SERVER_PATH)).toBe(true);
    const logs = await call(
      h.tenant.keys.viewer,
      `/v2/deployments/${d.id}/revisions/${revision.id}/logs`,
    );
    expect(JSON.stringify(logs.body)).toContain("Applied Deployment agents/remote-agent");

    // A PATCH reaches the cluster; each revision is applied by one replica only.
    for (const tag of [2, 3]) {
      const patched = await call(h.tenant.keys.editor, `/v2/deployments/${d.id}`, {
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
    expect(JSON.stringify(h.kube.objects.get(SERVER_PATH))).toContain("registry.example/remote:3");
    for (const tag of [1, 2, 3])
      expect(appliesOf(`registry.example/remote:${tag}`), `:${tag}`).toBe(1);

    // Killed mid-apply (its rollout never finishes): the other replica resumes the revision once
    // the lease expires.
    h.kube.setRollout("ready", { readyAfterReads: 1_000_000 });
    const patched = await call(h.tenant.keys.editor, `/v2/deployments/${d.id}`, {
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
    h.kube.setRollout("ready");
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
        listener: (await call(h.tenant.keys.viewer, `/v2/listeners/${listener.id}`)).body.status,
        deployment: (await call(h.tenant.keys.viewer, `/v2/deployments/${d.id}`)).body.status,
      }),
      (s) => s.listener === "offline" && s.deployment === "UNKNOWN",
      { what: "the listener offline and its deployment UNKNOWN" },
    );
    await runListener(listener.token);
    await waitFor(
      async () => (await call(h.tenant.keys.viewer, `/v2/deployments/${d.id}`)).body.status,
      (s) => s === "READY",
      { what: "the deployment READY again" },
    );
    expect((await call(h.tenant.keys.viewer, `/v2/listeners/${listener.id}`)).body.status).toBe(
      "online",
    );
  }, 300_000);
});
