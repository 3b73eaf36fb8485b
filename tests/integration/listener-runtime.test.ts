import { describe, expect, it } from "vitest";
import { waitFor, waitForRevision } from "../helpers/engine";
import { testDb } from "../helpers/fixtures";
import { listenerHarness } from "../helpers/listeners";

// Live health through a listener (contract 14.3): the listener process watches its cluster (the
// fake Kubernetes API) as Hangar's worker does and reports; the deployment's status and
// runtime_state follow. Its runtime logs are read by the listener when asked.

const db = testDb();
const h = listenerHarness();

describe("a listener's live health", () => {
  it("a crash loop in the listener's cluster turns the deployment UNKNOWN, and READY again", async () => {
    const listener = await h.createListener();
    await h.runListener(listener.token);
    const d = await h.createDeployment("remote-agent", listener.id, "registry.example/remote:1");
    const revision = await waitForRevision(d.latest_revision_id, undefined, {
      db,
      timeoutMs: 60_000,
    });
    expect(revision.status).toBe("DEPLOYED");
    const state = () => h.call(h.tenant.keys.viewer, `/v2/deployments/${d.id}/runtime_state`);
    const healthy = await waitFor(state, (r) => r.body.healthy === true, { what: "healthy" });
    expect(healthy.body).toMatchObject({ running: true, source: "listener", summary: "3/3 ready" });

    h.kube.crashLoop("remote-agent");
    const status = () => db.deployment.findUniqueOrThrow({ where: { id: d.id } });
    await waitFor(status, (r) => r.status === "UNKNOWN", { timeoutMs: 10_000, what: "UNKNOWN" });
    expect((await state()).body).toMatchObject({ healthy: false, reason: "CrashLoopBackOff" });
    h.kube.heal("remote-agent");
    await waitFor(status, (r) => r.status === "READY", { timeoutMs: 10_000, what: "READY" });

    const logs = await h.call(h.tenant.keys.viewer, `/v1/projects/${d.id}/deploy_logs`, {
      method: "POST",
      body: {},
    });
    // Read by the listener from its cluster when asked (listener-logs.test.ts has the rest).
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.source).toContain(`Read by listener ${listener.compute_id}`);
  });

  it("a listener reports only on its own deployments, and names only its own as targets", async () => {
    const mine = await h.createListener();
    const other = await h.createListener();
    const d = await h.createDeployment("remote-other", other.id, "registry.example/remote:9");
    const observation = {
      healthy: true,
      reason: null,
      ready_replicas: 1,
      desired_replicas: 1,
      restarts: 0,
      last_termination: null,
      components: [],
      events: [],
    };
    const report = await h.bearer(mine.token, `/v2/listener/deployments/${d.id}/runtime`, {
      replica_id: "r1",
      observation,
    });
    expect(report.status).toBe(404);
    const targets = await h.bearer(mine.token, "/v2/listener/runtime/targets", {
      replica_id: "r1",
    });
    expect(targets.status, targets.text).toBe(200);
    expect(
      targets.body.deployments.map((t: { deployment_id: string }) => t.deployment_id),
    ).not.toContain(d.id);
    const bad = await h.bearer(mine.token, "/v2/listener/runtime/targets", { replica_id: "a b" });
    expect(bad.status).toBe(422);
  });
});
