import type { Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { authenticate as authenticateService } from "../../src/server/services/agent-auth/authenticate";
import {
  launchBrowser,
  signInAndCatchRedirect,
  signInAndConsent,
} from "../helpers/consent-browser";
import { createDeploymentOverHttp, uniqueName, validDeployment } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  CLIENTS,
  startOAuthServer,
  type ClientName,
  type OAuthServer,
} from "../../testing/oauth-server";

// The whole agent-authorization flow against a real authorization server (oidc-provider) and a
// real browser: authenticate -> sign in and consent -> callback -> wait, then reuse, refresh,
// revocation, connections, and the errors a user can meet on the way.

let op: OAuthServer;
let browser: Browser;
let tenant: Tenant;
let other: Tenant;
const PROVIDERS: Record<string, ClientName> = {
  "op-basic": "basic",
  "op-post": "post",
  "op-public": "public",
};
const SCOPES = ["openid", "offline_access", "email", "files:read"];

beforeAll(async () => {
  const base = inject("baseUrl");
  const ids = [...Object.keys(PROVIDERS), "op-wrong"];
  op = await startOAuthServer(ids.map((id) => `${base}/v2/auth/callback/${id}`));
  browser = await launchBrowser();
  tenant = await createTenant();
  other = await createTenant();
  const register = async (provider_id: string, client: ClientName, secret?: string) => {
    const c = CLIENTS[client];
    const res = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        provider_id,
        name: provider_id,
        client_id: c.client_id,
        client_secret: secret ?? c.client_secret ?? null,
        auth_url: op.authUrl,
        token_url: op.tokenUrl,
        token_endpoint_auth_method: c.method,
        uses_pkce: client === "public",
      },
    });
    expect(res.status, res.text).toBe(201);
  };
  for (const [id, client] of Object.entries(PROVIDERS)) await register(id, client);
  await register("op-wrong", "basic", "not-the-secret");
});

afterAll(async () => {
  await browser?.close();
  await op?.stop();
});

const authenticate = (body: Record<string, unknown>, key = tenant.keys.editor) =>
  api("/v2/auth/authenticate", { key, method: "POST", body });
const wait = (authId: string, timeout = 60, key = tenant.keys.editor) =>
  api(`/v2/auth/wait/${authId}?timeout=${timeout}`, { key });
const tokenRow = (id: string) => testDb().oAuthToken.findUniqueOrThrow({ where: { id } });

describe("authenticate, consent in a browser, wait", () => {
  let tokenId: string;
  let accessToken: string;

  it("starts a flow, the user consents, wait wakes with a token the provider reports active", async () => {
    const started = await authenticate({ provider: "op-basic", scopes: SCOPES, user_id: "user-1" });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: "pending", token: null, user_id: "user-1" });
    const url = new URL(started.body.url);
    expect(url.origin + url.pathname).toBe(op.authUrl);
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{32,}$/);
    expect(url.searchParams.get("redirect_uri")).toBe(
      `${inject("baseUrl")}/v2/auth/callback/op-basic`,
    );

    const waiting = wait(started.body.auth_id);
    const page = await signInAndConsent(browser, started.body.url);
    expect(page.url.searchParams.get("result")).toBe("connected");
    expect(page.text).toContain("Account connected");
    expect(page.text).toContain("alice@example.test");

    const done = await waiting;
    expect(done.body).toMatchObject({ status: "completed", error: null });
    accessToken = done.body.token;
    expect(await op.introspect(accessToken, "basic")).toMatchObject({ active: true, sub: "alice" });

    const list = await api("/v2/auth/tokens?provider_id=op-basic&user_id=user-1", {
      key: tenant.keys.viewer,
    });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      provider_id: "op-basic",
      user_id: "user-1",
      provider_account_label: "alice@example.test",
      is_default: true,
    });
    expect(list.body[0].scopes).toEqual(expect.arrayContaining(["openid", "files:read"]));
    expect(list.text).not.toContain(accessToken);
    tokenId = list.body[0].id;
    const row = await tokenRow(tokenId);
    expect(row.accessTokenEncrypted).not.toContain(accessToken);
    expect(decrypt(row.accessTokenEncrypted)).toBe(accessToken);
    expect(row.refreshTokenEncrypted).toBeTruthy();
  });

  it("answers completed again without a browser", async () => {
    const again = await authenticate({
      provider: "op-basic",
      scopes: ["files:read"],
      user_id: "user-1",
    });
    expect(again.body).toMatchObject({
      status: "completed",
      token: accessToken,
      url: null,
      auth_id: null,
    });
    expect(again.body.metadata).toMatchObject({
      token_id: tokenId,
      provider_id: "op-basic",
      is_default: true,
    });
    const exists = await api("/v2/auth/tokens/exists?provider_id=op-basic&user_id=user-1", {
      key: tenant.keys.viewer,
    });
    expect(exists.body).toEqual({ has_token: true });
  });

  it("refreshes an expired token transparently", async () => {
    await testDb().oAuthToken.update({
      where: { id: tokenId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await authenticate({
      provider: "op-basic",
      scopes: ["files:read"],
      user_id: "user-1",
    });
    expect(res.body.status).toBe("completed");
    expect(res.body.token).not.toBe(accessToken);
    expect(await op.introspect(res.body.token, "basic")).toMatchObject({ active: true });
    expect(new Date(res.body.metadata.expires_at).getTime()).toBeGreaterThan(Date.now());
    accessToken = res.body.token;
  });

  it("asks an agent for a connection, then serves it", async () => {
    const agent = await createDeploymentOverHttp(
      tenant.keys.editor,
      validDeployment("internal_container", { name: uniqueName("agent") }),
    );
    const base = {
      provider: "op-basic",
      scopes: ["files:read"],
      user_id: "user-1",
      agent_id: agent.id,
    };
    expect((await authenticate(base)).body).toMatchObject({
      status: "connection_required",
      token: null,
    });
    const path = `/v2/auth/agents/${agent.id}/connections`;
    const created = await api(path, {
      key: tenant.keys.editor,
      method: "POST",
      body: { oauth_token_id: tokenId },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      agent_id: agent.id,
      oauth_token_id: tokenId,
      provider_id: "op-basic",
    });
    expect(
      (
        await api(path, {
          key: tenant.keys.editor,
          method: "POST",
          body: { oauth_token_id: tokenId },
        })
      ).status,
    ).toBe(409);
    expect((await authenticate(base)).body).toMatchObject({
      status: "completed",
      token: accessToken,
    });
    expect((await api(path, { key: tenant.keys.viewer })).body).toHaveLength(1);
    expect((await api(path, { key: other.keys.admin })).status).toBe(404);
    expect(
      (await api(`${path}/${created.body.id}`, { key: other.keys.admin, method: "DELETE" })).status,
    ).toBe(404);
    expect(
      (await api(`${path}/${created.body.id}`, { key: tenant.keys.editor, method: "DELETE" }))
        .status,
    ).toBe(204);
    expect((await authenticate(base)).body.status).toBe("connection_required");
  });

  it("refuses a replayed state", async () => {
    const flow = await testDb().oAuthFlow.findFirstOrThrow({
      where: { tokenId },
      orderBy: { createdAt: "asc" },
    });
    expect(flow.status).toBe("completed");
    // The state itself is stored only hashed: replay the one the browser delivered, via a new flow.
    const started = await authenticate({
      provider: "op-post",
      scopes: ["openid"],
      user_id: "user-3",
    });
    const caught = await signInAndCatchRedirect(browser, started.body.url);
    const first = await api("/v2/auth/callback/op-post", { method: "POST", body: caught });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      status: "completed",
      auth_id: started.body.auth_id,
      provider_id: "op-post",
    });
    const replay = await api("/v2/auth/callback/op-post", { method: "POST", body: caught });
    expect(replay.status).toBe(400);
    expect(replay.body.detail).toMatch(/state is unknown, already used or expired/);
    expect((await wait(started.body.auth_id, 0)).body.status).toBe("completed");
  });

  it("gives token_expired with a new flow when the provider revoked the refresh token", async () => {
    const row = await tokenRow(tokenId);
    await op.revoke(decrypt(row.refreshTokenEncrypted!), "basic");
    await testDb().oAuthToken.update({
      where: { id: tokenId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await authenticate({
      provider: "op-basic",
      scopes: ["files:read"],
      user_id: "user-1",
    });
    expect(res.body).toMatchObject({ status: "token_expired", token: null });
    expect(res.body.url).toContain(op.authUrl);
    expect(res.body.auth_id).toBeTruthy();
  });

  it("another workspace sees nothing", async () => {
    const flow = await testDb().oAuthFlow.findFirstOrThrow({ where: { tokenId } });
    expect((await wait(flow.id, 0, other.keys.admin)).body.status).toBe("not_found");
    expect(
      (await api(`/v2/auth/tokens/${tokenId}`, { key: other.keys.admin, method: "DELETE" })).status,
    ).toBe(404);
    const patch = await api(`/v2/auth/tokens/${tokenId}/metadata`, {
      key: other.keys.admin,
      method: "PATCH",
      body: { is_default: true },
    });
    expect(patch.status).toBe(404);
    expect(
      (await api("/v2/auth/tokens?provider_id=op-basic", { key: other.keys.admin })).status,
    ).toBe(404);
  });
});

describe("PKCE, revocation and the errors a user meets", () => {
  it("a public client runs with PKCE S256", async () => {
    const started = await authenticate({
      provider: "op-public",
      scopes: ["openid", "email"],
      user_id: "user-2",
    });
    const url = new URL(started.body.url);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const page = await signInAndConsent(browser, started.body.url, "bob");
    expect(page.url.searchParams.get("result")).toBe("connected");
    const done = await wait(started.body.auth_id);
    expect(done.body.status).toBe("completed");
    const me = await fetch(`${op.issuer}/me`, {
      headers: { authorization: `Bearer ${done.body.token}` },
    });
    expect(await me.json()).toMatchObject({ sub: "bob" });
  });

  it("deleting a token revokes it at the provider first", async () => {
    const started = await authenticate({
      provider: "op-basic",
      scopes: ["openid"],
      user_id: "user-4",
    });
    await signInAndConsent(browser, started.body.url, "carol");
    const { body } = await wait(started.body.auth_id);
    expect(await op.introspect(body.token, "basic")).toMatchObject({ active: true });
    const [token] = (
      await api("/v2/auth/tokens?provider_id=op-basic&user_id=user-4", { key: tenant.keys.editor })
    ).body;
    expect(
      (await api(`/v2/auth/tokens/${token.id}`, { key: tenant.keys.viewer, method: "DELETE" }))
        .status,
    ).toBe(403);
    expect(
      (await api(`/v2/auth/tokens/${token.id}`, { key: tenant.keys.editor, method: "DELETE" }))
        .status,
    ).toBe(204);
    expect(await op.introspect(body.token, "basic")).toMatchObject({ active: false });
    expect(
      (
        await api("/v2/auth/tokens/exists?provider_id=op-basic&user_id=user-4", {
          key: tenant.keys.editor,
        })
      ).body,
    ).toEqual({ has_token: false });
  });

  it("a wrong client secret ends on a page that says so, and wait reports the failure", async () => {
    const started = await authenticate({
      provider: "op-wrong",
      scopes: ["openid"],
      user_id: "user-5",
    });
    const page = await signInAndConsent(browser, started.body.url);
    expect(page.url.searchParams.get("result")).toBe("error");
    expect(page.text).toContain("The account was not connected");
    expect(page.text).toMatch(
      /Exchanging the authorization code: the provider answered invalid_client/,
    );
    const done = await wait(started.body.auth_id);
    expect(done.body).toMatchObject({ status: "failed", token: null });
    expect(done.body.error).toMatch(/invalid_client/);
  });

  it("a provider's refusal is shown in words", async () => {
    const started = await authenticate({
      provider: "op-basic",
      scopes: ["openid"],
      user_id: "user-6",
    });
    const state = new URL(started.body.url).searchParams.get("state")!;
    const res = await fetch(
      `${inject("baseUrl")}/v2/auth/callback/op-basic?state=${state}&error=access_denied&error_description=${encodeURIComponent("The user said no")}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, inject("baseUrl"));
    expect(location.pathname).toBe("/auth/complete");
    expect(location.searchParams.get("message")).toMatch(/access_denied: The user said no/);
    expect((await wait(started.body.auth_id, 0)).body).toMatchObject({ status: "failed" });
  });
});

describe("a dashboard session is its own user", () => {
  const session = (actor: Tenant["actors"]["viewer"]) =>
    createCaller({ db: testDb(), requestId: "agent-auth", actor, origin: inject("baseUrl") });

  it("connects its own account at any role; others cannot see or disconnect it", async () => {
    const viewer = session(tenant.actors.viewer);
    const started = await viewer.agentAuth.connect({ providerId: "op-basic", scopes: ["openid"] });
    expect(started).toMatchObject({ status: "pending", user_id: tenant.userIds.viewer });
    const page = await signInAndConsent(browser, started.url!, "erin");
    expect(page.url.searchParams.get("result")).toBe("connected");
    const [mine] = await viewer.agentAuth.tokens({ providerId: "op-basic" });
    expect(mine).toMatchObject({
      user_id: tenant.userIds.viewer,
      provider_account_label: "erin", // only openid was asked: the subject, not the email
    });

    const editor = session(tenant.actors.editor);
    expect(await editor.agentAuth.tokens({})).toEqual([]);
    await expect(editor.agentAuth.disconnect({ tokenId: mine!.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // An agent names the same person by id.
    const byKey = await api(`/v2/auth/tokens?user_id=${tenant.userIds.viewer}`, {
      key: tenant.keys.viewer,
    });
    expect(byKey.body.map((t: { id: string }) => t.id)).toEqual([mine!.id]);

    await expect(
      authenticateService(
        testDb(),
        tenant.actors.viewer,
        {
          provider: "op-basic",
          scopes: [],
          user_id: "someone-else",
          force_new: false,
          is_default: false,
        },
        inject("baseUrl"),
      ),
    ).rejects.toMatchObject({ code: "forbidden" });

    await viewer.agentAuth.disconnect({ tokenId: mine!.id });
    expect(await viewer.agentAuth.tokens({})).toEqual([]);
  });
});
