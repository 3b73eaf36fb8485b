import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type RunningServer } from "../../testing/server";
import { api } from "../helpers/http";
import { uniqueName } from "../helpers/revision-fixtures";
import { hashPassword } from "../../src/server/auth/passwords";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { cookiesOf, signInAttempt } from "../helpers/sign-in";

// Issue 23, finding 6: X-Forwarded-Proto/-Host/-Port and Forwarded count only behind trusted
// proxies (HANGAR_TRUSTED_PROXY_HOPS > 0), for every URL Hangar hands out: upload URLs (REST and
// tRPC), OAuth redirect URIs, next-auth's own URLs.

const FORGED = {
  "x-forwarded-proto": "https",
  "x-forwarded-host": "evil.example",
  "x-forwarded-port": "8443",
  forwarded: "for=203.0.113.9;proto=https;host=evil.example",
};

const PASSWORD = "a-forwarded-password-1";
let tenant: Tenant;
let email: string;
let trusted: RunningServer;
let configured: RunningServer;

beforeAll(async () => {
  [tenant, trusted, configured] = await Promise.all([
    createTenant(),
    startServer({ ...inject("testEnv"), HANGAR_TRUSTED_PROXY_HOPS: "1" }),
    startServer({ ...inject("testEnv"), HANGAR_PUBLIC_URL: "https://hangar.example/" }),
  ]);
  const provider = await api("/v2/auth/providers", {
    key: tenant.keys.admin,
    method: "POST",
    body: {
      provider_id: "fwd-idp",
      name: "Forwarded IdP",
      client_id: "hangar",
      client_secret: "s3cret",
      auth_url: "https://idp.example/authorize",
      token_url: "https://idp.example/token",
    },
  });
  expect(provider.status, provider.text).toBe(201);
  ({ email } = await testDb().user.update({
    where: { id: tenant.userIds.editor },
    data: { passwordHash: await hashPassword(PASSWORD) },
  }));
}, 120_000);
afterAll(() => Promise.all([trusted?.stop(), configured?.stop()]));

/** Signs in through `baseUrl` as a browser behind those headers would (the cookie's name says https). */
async function sessionCookie(baseUrl: string, headers: Record<string, string>) {
  const res = await signInAttempt(email, PASSWORD, { baseUrl, headers });
  const cookie = cookiesOf(res)
    .split("; ")
    .filter((c) => /^(__Secure-)?authjs\.session-token=./.test(c))
    .join("; ");
  expect(cookie, `${res.status} ${res.headers.get("location")}`).not.toBe("");
  return cookie;
}

/** The doors that hand out an origin, called on `baseUrl` with `headers`. */
async function origins(baseUrl: string, headers: Record<string, string>) {
  const created = await api("/v2/deployments", {
    baseUrl,
    key: tenant.keys.editor,
    method: "POST",
    body: {
      name: uniqueName("fwd"),
      source: "internal_source",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    },
  });
  expect(created.status, created.text).toBe(201);
  const rest = await api(`/v2/deployments/${created.body.id}/upload-url`, {
    baseUrl,
    key: tenant.keys.editor,
    method: "POST",
    headers,
  });
  expect(rest.status, rest.text).toBe(200);

  const flow = await api("/v2/auth/authenticate", {
    baseUrl,
    key: tenant.keys.editor,
    method: "POST",
    headers,
    body: { provider: "fwd-idp", user_id: "forwarded-user" },
  });
  expect(flow.status, flow.text).toBe(200);
  const redirectUri = new URL(flow.body.url).searchParams.get("redirect_uri")!;
  expect(redirectUri).toMatch(/\/v2\/auth\/callback\/fwd-idp$/);

  const cookie = await sessionCookie(baseUrl, headers);
  const trpc = await fetch(`${baseUrl}/api/trpc/deployments.uploadUrl`, {
    method: "POST",
    headers: { ...headers, cookie, "content-type": "application/json" },
    body: JSON.stringify({ id: created.body.id }),
  });
  const trpcText = await trpc.text();
  expect(trpc.status, trpcText).toBe(200);

  const auth = await fetch(`${baseUrl}/api/auth/providers`, { headers });
  expect(auth.status).toBe(200);
  const { credentials } = (await auth.json()) as Record<string, { signinUrl: string }>;

  return {
    uploadUrl: new URL(rest.body.upload_url).origin,
    redirectUri: new URL(redirectUri).origin,
    trpcUploadUrl: new URL(JSON.parse(trpcText).result.data.upload_url).origin,
    nextAuth: new URL(credentials!.signinUrl).origin,
  };
}

const everywhere = (origin: string) => ({
  uploadUrl: origin,
  redirectUri: origin,
  trpcUploadUrl: origin,
  nextAuth: origin,
});

describe("forwarded headers", () => {
  it("are ignored without trusted proxies: URLs keep the real scheme and host", async () => {
    const base = inject("baseUrl");
    expect(await origins(base, FORGED)).toEqual(everywhere(base));
    expect(await origins(base, {})).toEqual(everywhere(base));
  });

  it("behind one trusted proxy, the entry the proxy appended counts, not the client's", async () => {
    // The client sent the first entries; the trusted proxy appended the last.
    expect(
      await origins(trusted.url, {
        "x-forwarded-proto": "http, https",
        "x-forwarded-host": "evil.example, hangar.example",
      }),
    ).toEqual(everywhere("https://hangar.example"));
    // Plain http through the proxy.
    expect(
      await origins(trusted.url, {
        "x-forwarded-proto": "https, http",
        "x-forwarded-host": "evil.example, hangar.example",
      }),
    ).toEqual(everywhere("http://hangar.example"));
    // No forwarded headers: the request's own scheme and host.
    expect(await origins(trusted.url, {})).toEqual(everywhere(trusted.url));
  });

  it("give way to HANGAR_PUBLIC_URL, which next-auth's sessions follow too", async () => {
    // Signed in at https://hangar.example, the session reads back over the same plain socket.
    expect(await origins(configured.url, FORGED)).toEqual(everywhere("https://hangar.example"));
  });
});
