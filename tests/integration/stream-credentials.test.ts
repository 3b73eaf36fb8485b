import { beforeAll, describe, expect, inject, it } from "vitest";
import { appendLogs } from "../../src/server/services/revisions/logs-append";
import { openEventStream, type EventStream } from "../helpers/event-stream";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { createDeployment } from "../helpers/revision-fixtures";
import { signInAs, signOut } from "../helpers/sign-in";

// Issue 23, finding 7: an open event stream or long poll ends when its credential does (a
// revoked key, a signed-out or revoked session, a removed member), within the key cache's bound
// (contract section 2: 5 s), with a last `unauthorized` event carrying the error a new request gets.

const base = () => inject("baseUrl");
/** Generous: the bound is 5 s; this only tells "ended" from "still open". */
const ENDS_WITHIN_MS = 15_000;
const INVALID_KEY = { detail: "Invalid API key", code: "unauthorized" };
const NO_CREDENTIALS = {
  detail: "Missing credentials: send an X-Api-Key header or sign in",
  code: "unauthorized",
};

let tenant: Tenant;
let adminCookie: string;

beforeAll(async () => {
  tenant = await createTenant();
  adminCookie = await signInAs(tenant.userIds.admin);
});

/** A dashboard call (tRPC over HTTP) with a session cookie, as the browser makes it. */
async function trpc(path: string, cookie: string, input?: unknown) {
  const res = await fetch(`${base()}/api/trpc/${path}`, {
    method: input === undefined ? "GET" : "POST",
    headers: { cookie, "content-type": "application/json" },
    body: input === undefined ? undefined : JSON.stringify(input),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text).result.data;
}

/** A key of its own, made and later revoked in Settings → API keys. */
async function freshKey(role: "viewer" | "editor" = "viewer") {
  return (await trpc("apiKeys.create", adminCookie, { name: `stream ${role}`, role })) as {
    id: string;
    key: string;
  };
}

const events = (cookieOrKey: Record<string, string>) =>
  openEventStream(`${base()}/v2/deployments/events`, cookieOrKey);

async function expectEndedWith(stream: EventStream, body: unknown) {
  const received = await stream.closedWithin(ENDS_WITHIN_MS);
  expect(received.at(-1)).toEqual({ event: "unauthorized", data: body });
}

describe("GET /v2/deployments/events ends with its credential", () => {
  it("an API key revoked in the dashboard", async () => {
    const { id, key } = await freshKey();
    const stream = await events({ "x-api-key": key });
    await stream.next("ready");
    await trpc("apiKeys.revoke", adminCookie, { id });
    await expectEndedWith(stream, INVALID_KEY);
    expect((await api("/v2/deployments/events", { key })).status).toBe(401);
  });

  it("a session signed out", async () => {
    const cookie = await signInAs(tenant.userIds.viewer);
    const stream = await events({ cookie });
    await stream.next("ready");
    const out = await signOut(cookie);
    expect(out.status).toBe(302);
    await expectEndedWith(stream, NO_CREDENTIALS);
  });

  it("a session revoked from another browser (Settings → Sessions)", async () => {
    const mine = await signInAs(tenant.userIds.editor);
    const copied = await signInAs(tenant.userIds.editor);
    const stream = await events({ cookie: copied });
    await stream.next("ready");
    const sessions = (await trpc("session.list", mine)) as { id: string; current: boolean }[];
    const other = sessions.find((s) => !s.current)!;
    await trpc("session.revoke", mine, { id: other.id });
    await expectEndedWith(stream, NO_CREDENTIALS);
    // The revoking browser's own stream stays open.
    const own = await events({ cookie: mine });
    await own.next("ready");
    own.close();
  });

  it("a member removed from the workspace, while other members' streams go on", async () => {
    const db = testDb();
    const user = await db.user.create({
      data: { email: `removed-${Date.now()}@example.test`, name: "Soon removed" },
    });
    await db.membership.create({
      data: { userId: user.id, workspaceId: tenant.workspaceId, role: "editor" },
    });
    const stream = await events({ cookie: await signInAs(user.id) });
    const bystander = await events({ "x-api-key": tenant.keys.viewer });
    await Promise.all([stream.next("ready"), bystander.next("ready")]);
    await trpc("members.remove", adminCookie, { userId: user.id });
    await expectEndedWith(stream, NO_CREDENTIALS);
    // Still delivering: a change after the removal reaches the other stream.
    await createDeployment(tenant.keys.editor);
    await bystander.next("change");
    bystander.close();
  });
});

describe("other long-lived answers end with their credential", () => {
  it("a revision's log stream, when its key is revoked", async () => {
    const deployment = await createDeployment(tenant.keys.editor);
    // A revision that stays unfinished: the stream would otherwise run until it ends.
    const revision = await testDb().revision.create({
      data: {
        deploymentId: deployment.id,
        number: 99,
        source: "internal_container",
        status: "CREATING",
        sourceConfig: {},
        sourceRevisionConfig: {},
      },
    });
    await appendLogs(testDb(), revision.id, "build", ["still building"]);
    const { id, key } = await freshKey();
    const stream = await openEventStream(
      `${base()}/v2/deployments/${deployment.id}/revisions/${revision.id}/logs/stream`,
      { "x-api-key": key },
    );
    await stream.next("log");
    await trpc("apiKeys.revoke", adminCookie, { id });
    await expectEndedWith(stream, INVALID_KEY);
  });

  it("an agent's long poll on a flow (GET /v2/auth/wait), when its key is revoked", async () => {
    const provider = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        provider_id: "wait-idp",
        name: "Wait IdP",
        client_id: "hangar",
        client_secret: "s3cret",
        auth_url: "https://idp.example/authorize",
        token_url: "https://idp.example/token",
      },
    });
    expect(provider.status, provider.text).toBe(201);
    const started = await api("/v2/auth/authenticate", {
      key: tenant.keys.editor,
      method: "POST",
      body: { provider: "wait-idp", user_id: "agent-user" },
    });
    expect(started.body.status, started.text).toBe("pending");
    // A key of the same workspace waits for the flow; its first use is the long poll.
    const { id, key } = await freshKey("editor");
    const waiting = api(`/v2/auth/wait/${started.body.auth_id}?timeout=30`, { key });
    await untilKeyUsed(id);
    await trpc("apiKeys.revoke", adminCookie, { id });
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body).toEqual(INVALID_KEY);
  }, 60_000);
});

/** A key's first use is noted as a request authenticates with it: the long poll has begun. */
async function untilKeyUsed(id: string) {
  for (let i = 0; i < 100; i++) {
    const row = await testDb().apiKey.findUniqueOrThrow({ where: { id } });
    if (row.lastUsedAt) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the long poll never authenticated");
}
