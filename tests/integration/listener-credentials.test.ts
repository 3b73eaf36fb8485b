import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "../../testing/server";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Issue 23, finding 7: a listener's long poll (POST /v2/listener/work) ends with 401 once the
// listener is deleted (which revokes its token), instead of waiting on with a dead credential.

let server: RunningServer;
let tenant: Tenant;

beforeAll(async () => {
  [tenant, server] = await Promise.all([
    createTenant(),
    startServer({
      ...inject("testEnv"),
      HANGAR_MODE: "self_hosted",
      HANGAR_LISTENER_POLL_SECONDS: "30",
    }),
  ]);
}, 120_000);
afterAll(() => server?.stop());

async function createListener(computeId: string) {
  const res = await api("/v2/listeners", {
    baseUrl: server.url,
    key: tenant.keys.admin,
    method: "POST",
    body: { compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: ["a"] } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; token: string };
}

const claimWork = (token: string, waitSeconds: number) =>
  api("/v2/listener/work", {
    baseUrl: server.url,
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: { replica_id: "replica-1", wait_seconds: waitSeconds },
  });

/** Every protocol call notes the listener as seen: once it is, its long poll has begun. */
async function untilSeen(listenerId: string) {
  for (let i = 0; i < 100; i++) {
    const row = await testDb().listener.findUniqueOrThrow({ where: { id: listenerId } });
    if (row.lastSeenAt) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the long poll never authenticated");
}

describe("POST /v2/listener/work", () => {
  it("answers 401 when the listener is deleted during the long poll", async () => {
    const listener = await createListener("deleted-while-polling");
    const polling = claimWork(listener.token, 30);
    await untilSeen(listener.id);
    const deleted = await api(`/v2/listeners/${listener.id}`, {
      baseUrl: server.url,
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(deleted.status, deleted.text).toBe(204);
    const answer = await polling;
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body).toEqual({ detail: "Invalid listener token", code: "unauthorized" });
  }, 60_000);

  it("lets a live listener's long poll run its course", async () => {
    const listener = await createListener("still-here");
    // Longer than one credential check: the check passes and the wait ends as asked.
    const answer = await claimWork(listener.token, 3);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ work: null });
  });
});
