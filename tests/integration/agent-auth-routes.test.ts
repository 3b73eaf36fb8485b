import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { signInAs } from "../helpers/sign-in";
import {
  CLIENTS,
  startOAuthServer,
  startProtectedResource,
  type OAuthServer,
} from "../../testing/oauth-server";

// /v2/auth without a browser: input rules, roles, states that must be refused, wait's answers,
// the slack workspace routes and MCP discovery (RFC 9728 -> RFC 8414 -> RFC 7591) against a
// real authorization server on loopback.

let op: OAuthServer;
let mcp: Awaited<ReturnType<typeof startProtectedResource>>;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  const base = inject("baseUrl");
  op = await startOAuthServer([
    `${base}/v2/auth/callback/rt-basic`,
    `${base}/v2/auth/callback/rt-post`,
  ]);
  mcp = await startProtectedResource(op.issuer);
  tenant = await createTenant();
  other = await createTenant();
  for (const [provider_id, client] of [
    ["rt-basic", CLIENTS.basic],
    ["rt-post", CLIENTS.post],
  ] as const) {
    const res = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        provider_id,
        name: provider_id,
        client_id: client.client_id,
        client_secret: client.client_secret,
        auth_url: op.authUrl,
        token_url: op.tokenUrl,
        token_endpoint_auth_method: client.method,
      },
    });
    expect(res.status, res.text).toBe(201);
  }
});

afterAll(async () => {
  await mcp?.stop();
  await op?.stop();
});

const authenticate = (body: unknown, key = tenant.keys.editor) =>
  api("/v2/auth/authenticate", { key, method: "POST", body });

describe("POST /v2/auth/authenticate", () => {
  it("needs credentials, an editor key and a user_id from API-key callers", async () => {
    expect((await authenticate({ provider: "rt-basic", user_id: "u" }, "")).status).toBe(401);
    expect(
      (await authenticate({ provider: "rt-basic", user_id: "u" }, tenant.keys.viewer)).status,
    ).toBe(403);
    const missing = await authenticate({ provider: "rt-basic", scopes: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(["body", "user_id"]);
    const badScope = await authenticate({
      provider: "rt-basic",
      user_id: "u",
      scopes: ["two words"],
    });
    expect(badScope.status).toBe(422);
    expect(badScope.body.detail[0].loc).toEqual(["body", "scopes", 0]);
  });

  it("answers 404 for another organization's provider, an unknown agent or token", async () => {
    const foreign = await authenticate({ provider: "rt-basic", user_id: "u" }, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe("OAuth provider rt-basic not found.");
    const agent = "00000000-0000-4000-8000-000000000000";
    expect(
      (await authenticate({ provider: "rt-basic", user_id: "u", agent_id: agent })).status,
    ).toBe(404);
    expect(
      (await authenticate({ provider: "rt-basic", user_id: "u", token_id: agent })).status,
    ).toBe(404);
  });

  it("starts a pending flow with a state stored only as a hash, bound to one flow", async () => {
    const res = await authenticate({ provider: "rt-basic", scopes: ["openid"], user_id: "u1" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", token: null, user_id: "u1" });
    expect(res.body.metadata).toMatchObject({
      token_id: null,
      provider_id: "rt-basic",
      scopes: ["openid"],
    });
    const url = new URL(res.body.url);
    expect(url.searchParams.get("client_id")).toBe(CLIENTS.basic.client_id);
    expect(url.searchParams.get("scope")).toBe("openid");
    expect(url.searchParams.get("code_challenge")).toBeNull(); // this provider does not use PKCE
    const flow = await testDb().oAuthFlow.findUniqueOrThrow({ where: { id: res.body.auth_id } });
    expect(flow.stateHash).not.toContain(url.searchParams.get("state"));
    expect(flow.expiresAt.getTime() - flow.createdAt.getTime()).toBe(10 * 60_000);
  });
});

describe("callback", () => {
  const post = (provider: string, body: unknown) =>
    api(`/v2/auth/callback/${provider}`, { method: "POST", body });

  it("refuses an unknown state, another provider's state and an expired one", async () => {
    expect((await post("rt-basic", { code: "c", state: "not-a-state" })).status).toBe(400);
    const started = await authenticate({ provider: "rt-post", scopes: [], user_id: "u2" });
    const state = new URL(started.body.url).searchParams.get("state")!;
    const foreign = await post("rt-basic", { code: "c", state });
    expect(foreign.status).toBe(400);
    expect(foreign.body.detail).toMatch(/state is unknown, already used or expired/);
    await testDb().oAuthFlow.update({
      where: { id: started.body.auth_id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect((await post("rt-post", { code: "c", state })).status).toBe(400);
  });

  it("reports a code the provider does not know as a 502 naming the step, and the flow as failed", async () => {
    const started = await authenticate({ provider: "rt-basic", scopes: [], user_id: "u3" });
    const state = new URL(started.body.url).searchParams.get("state")!;
    const res = await post("rt-basic", { code: "made-up-code", state });
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(
      /^Exchanging the authorization code: the provider answered invalid_grant/,
    );
    const waited = await api(`/v2/auth/wait/${started.body.auth_id}?timeout=0`, {
      key: tenant.keys.editor,
    });
    expect(waited.body).toMatchObject({ status: "failed", token: null });
  });

  it("sends the browser to a result page for a missing state, without a JSON error", async () => {
    const res = await fetch(`${inject("baseUrl")}/v2/auth/callback/rt-basic?code=x`, {
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, inject("baseUrl"));
    expect(location.searchParams.get("result")).toBe("error");
    expect(location.searchParams.get("message")).toBe("The callback has no state parameter.");
    const page = await fetch(location);
    expect(await page.text()).toContain("The callback has no state parameter.");
  });
});

describe("GET /v2/auth/wait/{auth_id}", () => {
  it("answers pending, timeout, not_found, and 422 past 60 s", async () => {
    const started = await authenticate({ provider: "rt-basic", scopes: [], user_id: "u4" });
    const wait = (id: string, timeout: string, key = tenant.keys.editor) =>
      api(`/v2/auth/wait/${id}?timeout=${timeout}`, { key });
    expect((await wait(started.body.auth_id, "0")).body).toEqual({
      status: "pending",
      token: null,
      error: null,
    });
    expect((await wait(started.body.auth_id, "0.2")).body.status).toBe("timeout");
    expect((await wait(started.body.auth_id, "0", other.keys.admin)).body.status).toBe("not_found");
    expect((await wait("nope", "0")).body.status).toBe("not_found");
    const tooLong = await wait(started.body.auth_id, "61");
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail[0].loc).toEqual(["query", "timeout"]);
  });
});

describe("GET /v2/auth/wait/{auth_id} from dashboard sessions", () => {
  it("answers a session about its own user's flows only", async () => {
    const editor = await signInAs(tenant.userIds.editor);
    const viewer = await signInAs(tenant.userIds.viewer);
    const started = await api("/v2/auth/authenticate", {
      method: "POST",
      headers: { cookie: editor },
      body: { provider: "rt-basic", scopes: [] },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: "pending", user_id: tenant.userIds.editor });
    const waitAs = (cookie: string) =>
      api(`/v2/auth/wait/${started.body.auth_id}?timeout=0`, { headers: { cookie } });
    expect((await waitAs(editor)).body.status).toBe("pending");
    // Same workspace, another user: as if the flow did not exist.
    expect((await waitAs(viewer)).body.status).toBe("not_found");
    // The agent's key acts for any user of its workspace.
    expect(
      (await api(`/v2/auth/wait/${started.body.auth_id}?timeout=0`, { key: tenant.keys.editor }))
        .body.status,
    ).toBe("pending");
  });
});

describe("tokens and connections: input and authorization", () => {
  it("requires user_id from API keys where a user's tokens are meant", async () => {
    const exists = await api("/v2/auth/tokens/exists?provider_id=rt-basic", {
      key: tenant.keys.editor,
    });
    expect(exists.status).toBe(422);
    expect(exists.body.detail[0].loc).toEqual(["query", "user_id"]);
    const none = await api("/v2/auth/tokens/exists?provider_id=rt-basic&user_id=nobody", {
      key: tenant.keys.viewer,
    });
    expect(none.body).toEqual({ has_token: false });
    expect(
      (
        await api("/v2/auth/tokens?provider_id=rt-basic", {
          method: "DELETE",
          key: tenant.keys.editor,
        })
      ).status,
    ).toBe(422);
    expect((await api("/v2/auth/tokens", { key: tenant.keys.viewer })).body).toEqual([]);
    expect(
      (await api("/v2/auth/tokens/not-a-uuid", { method: "DELETE", key: tenant.keys.editor }))
        .status,
    ).toBe(422);
  });

  it("answers 404 for an unknown agent and 422 for a bad connection body", async () => {
    const agent = "00000000-0000-4000-8000-000000000001";
    expect(
      (await api(`/v2/auth/agents/${agent}/connections`, { key: tenant.keys.viewer })).status,
    ).toBe(404);
    const bad = await api(`/v2/auth/agents/${agent}/connections`, {
      key: tenant.keys.editor,
      method: "POST",
      body: {},
    });
    expect(bad.status).toBe(422);
  });

  it("slack workspace routes: exists for anyone, delete for admins", async () => {
    expect(
      (await api("/v2/auth/tokens/workspace/slack/exists", { key: tenant.keys.viewer })).body,
    ).toEqual({ has_token: false });
    expect(
      (await api("/v2/auth/tokens/workspace/slack", { key: tenant.keys.editor, method: "DELETE" }))
        .status,
    ).toBe(403);
    const done = await api("/v2/auth/tokens/workspace/slack", {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ deleted: 0 });
  });
});

describe("POST /v2/auth/providers/mcp-discover", () => {
  const discover = (body: unknown, key = tenant.keys.admin) =>
    api("/v2/auth/providers/mcp-discover", { key, method: "POST", body });

  it("finds the authorization server, registers a client and saves the provider", async () => {
    const res = await discover({
      provider_id: "mcp-docs",
      name: "Docs MCP",
      mcp_server_url: mcp.url,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      provider_id: "mcp-docs",
      name: "Docs MCP",
      auth_url: `${op.issuer}/auth`,
      token_url: `${op.issuer}/token`,
      uses_pkce: true,
      code_challenge_method: "S256",
      is_dynamic_client: true,
      mcp_server_url: mcp.url,
      token_endpoint_auth_method: "none",
    });
    expect(res.body.client_id).toBeTruthy();
    const started = await authenticate({ provider: "mcp-docs", scopes: ["openid"], user_id: "u5" });
    const url = new URL(started.body.url);
    expect(url.searchParams.get("client_id")).toBe(res.body.client_id);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(
      (await discover({ provider_id: "mcp-docs", name: "again", mcp_server_url: mcp.url })).status,
    ).toBe(409);
  });

  it("names the step that failed", async () => {
    const noMetadata = await discover({
      provider_id: "mcp-x",
      name: "x",
      mcp_server_url: `${op.issuer}/mcp`,
    });
    expect(noMetadata.status).toBe(502);
    expect(noMetadata.body.detail).toMatch(/^Protected-resource metadata \(RFC 9728\)/);
    const refused = await discover({
      provider_id: "mcp-y",
      name: "y",
      mcp_server_url: "http://localhost:1/mcp",
    });
    expect(refused.status).toBe(502);
    expect(refused.body.detail).toMatch(
      /^Protected-resource metadata \(RFC 9728\): localhost:1 could not be reached/,
    );
    expect(
      (
        await discover(
          { provider_id: "mcp-z", name: "z", mcp_server_url: mcp.url },
          tenant.keys.viewer,
        )
      ).status,
    ).toBe(403);
    expect(
      (await discover({ provider_id: "mcp-z", name: "z", mcp_server_url: "ftp://x" })).status,
    ).toBe(422);
  });
});
