import { describe, expect, it } from "vitest";
import { waitFor } from "../helpers/engine";
import { testDb } from "../helpers/fixtures";
import { listenerHarness, SERVER_PATH } from "../helpers/listeners";

// Deleting a deployment assigned to a listener (contract 5.3 with 14): the listener removes its
// objects from its cluster and reports; until then the deployment is AWAITING_DELETE.

const db = testDb();
const h = listenerHarness();

const deploymentStatus = async (id: string) => {
  const res = await h.call(h.tenant.keys.viewer, `/v2/deployments/${id}`);
  return res.status === 404 ? "gone" : (res.body.status as string);
};

describe("deleting a listener's deployment", () => {
  it("deletion work is leased to one replica; reports are idempotent, also once it is gone", async () => {
    const listener = await h.createListener();
    const d = await h.createDeployment("to-delete", listener.id, "registry.example/del:1");
    await waitFor(
      () => db.revision.findUniqueOrThrow({ where: { id: d.latest_revision_id } }),
      (r) => r.status === "DEPLOYING",
      { what: "the revision handed to the listener" },
    );
    const del = await h.call(h.tenant.keys.editor, `/v2/deployments/${d.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await deploymentStatus(d.id)).toBe("AWAITING_DELETE");
    const busy = await h.call(h.tenant.keys.admin, `/v2/listeners/${listener.id}`, {
      method: "DELETE",
    });
    expect(busy.status).toBe(409);

    const claim = (replica_id: string) =>
      h.bearer(listener.token, "/v2/listener/work", { replica_id, wait_seconds: 0 });
    const first = await claim("replica-a");
    expect(first.status, first.text).toBe(200);
    expect(first.body.work).toMatchObject({
      action: "delete",
      deployment_id: d.id,
      deployment_name: "to-delete",
      namespace: "agents",
    });
    expect(first.body.work.objects).toContainEqual(
      expect.objectContaining({
        kind: "Deployment",
        metadata: expect.objectContaining({ name: "to-delete" }),
      }),
    );
    expect((await claim("replica-b")).body).toEqual({ work: null });

    const report = (replica_id: string, report_id: string, status?: string) =>
      h.bearer(listener.token, `/v2/listener/deployments/${d.id}/reports`, {
        replica_id,
        report_id,
        ...(status ? { status } : {}),
        lines: [`report ${report_id}`],
      });
    expect((await report("replica-b", "b-1", "DELETED")).status).toBe(409);
    const renewed = await report("replica-a", "a-1");
    expect(renewed.body).toMatchObject({ status: "AWAITING_DELETE", lease_owner: "replica-a" });
    expect((await report("replica-a", "a-1")).body).toEqual(renewed.body);

    const done = await report("replica-a", "a-2", "DELETED");
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({
      deployment_id: d.id,
      status: "DELETED",
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(await deploymentStatus(d.id)).toBe("gone");
    // At-least-once delivery: the same report again answers the same; another listener's 404.
    expect((await report("replica-a", "a-2", "DELETED")).body).toEqual(done.body);
    const other = await h.createListener();
    const foreign = await h.bearer(other.token, `/v2/listener/deployments/${d.id}/reports`, {
      replica_id: "x",
      report_id: "a-2",
      status: "DELETED",
    });
    expect(foreign.status).toBe(404);

    const unused = await h.call(h.tenant.keys.admin, `/v2/listeners/${listener.id}`, {
      method: "DELETE",
    });
    expect(unused.status).toBe(204);
  });

  it("a listener process removes the objects from its cluster; offline, the deployment waits", async () => {
    const listener = await h.createListener();
    const running = await h.runListener(listener.token);
    const d = await h.createDeployment("remote-agent", listener.id, "registry.example/gone:1");
    await waitFor(
      () => deploymentStatus(d.id),
      (s) => s === "READY",
      { what: "the deployment READY through the listener", timeoutMs: 60_000 },
    );
    expect(h.kube.objects.has(SERVER_PATH)).toBe(true);

    // Offline: the deletion waits, the objects stay.
    await running.stop();
    const del = await h.call(h.tenant.keys.editor, `/v2/deployments/${d.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    await waitFor(
      async () => (await h.call(h.tenant.keys.viewer, `/v2/listeners/${listener.id}`)).body.status,
      (s) => s === "offline",
      { what: "the listener offline" },
    );
    expect(await deploymentStatus(d.id)).toBe("AWAITING_DELETE");
    expect(h.kube.objects.has(SERVER_PATH)).toBe(true);

    // Back online: it deletes the objects, reports, and the deployment is gone.
    const back = await h.runListener(listener.token);
    await waitFor(
      () => deploymentStatus(d.id),
      (s) => s === "gone",
      { what: "the deployment deleted by the listener", timeoutMs: 60_000 },
    ).catch((e) => {
      console.log(back.output().slice(-3000));
      throw e;
    });
    expect([...h.kube.objects.keys()].filter((p) => p.includes("/remote-agent"))).toEqual([]);
    expect(h.kube.requests.some((r) => r.method === "DELETE" && r.path === SERVER_PATH)).toBe(true);
    expect(back.output()).toContain('"status":"DELETED"');
  }, 180_000);
});
