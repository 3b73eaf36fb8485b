import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

const TOKEN = "cht_integration_token_never_shown";
const REVOKABLE = "cht_token_to_revoke_later";
const WEBHOOK_SECRET = "whsec_never_shown";
const EXTRA = 150;
const app = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
});

let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  host = await startCodehostServer({
    extraRepos: EXTRA,
    tokens: [TOKEN, REVOKABLE],
    apps: [{ appId: "901", publicKey: app.publicKey, installationId: "31337" }],
  });
});
afterAll(() => host?.stop());

const create = (body: Record<string, unknown>, key = tenant.keys.admin) =>
  api("/v1/integrations/codehost", { key, method: "POST", body });
// Names are unique per organization: each integration here gets its own.
let made = 0;
const tokenIntegration = (extra: Record<string, unknown> = {}, key?: string) =>
  create({ name: `token host ${++made}`, api_base_url: host.url, token: TOKEN, ...extra }, key);
const appIntegration = () =>
  create({
    name: `app host ${++made}`,
    api_base_url: `${host.url}/`,
    app_id: 901,
    private_key: app.privateKey,
    installation_id: "31337",
  });
const repos = (id: string, key = tenant.keys.viewer) =>
  api(`/v1/integrations/forge/codehost/${id}/repos`, { key });

const byOwnerThenName = (a: { owner: string; name: string }, b: typeof a) =>
  a.owner.toLowerCase().localeCompare(b.owner.toLowerCase()) ||
  a.name.toLowerCase().localeCompare(b.name.toLowerCase());

describe("REST /v1/integrations/codehost", () => {
  it("creates a token integration, storing credentials encrypted and never returning them", async () => {
    const res = await tokenIntegration({ webhook_secret: WEBHOOK_SECRET });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      "api_base_url",
      "created_at",
      "id",
      "installation_id",
      "name",
    ]);
    expect(res.body).toMatchObject({
      name: expect.stringMatching(/^token host \d+$/),
      api_base_url: host.url,
      installation_id: null,
    });
    expect(res.text).not.toContain(TOKEN);
    expect(res.text).not.toContain(WEBHOOK_SECRET);

    const row = await testDb().codehostIntegration.findUniqueOrThrow({
      where: { id: res.body.id },
    });
    expect(row.organizationId).toBe(tenant.organizationId);
    expect(row.tokenEncrypted).not.toContain(TOKEN);
    expect(decrypt(row.tokenEncrypted!)).toBe(TOKEN);
    expect(decrypt(row.webhookSecretEncrypted!)).toBe(WEBHOOK_SECRET);

    const events = await testDb().auditEvent.findMany({ where: { targetId: res.body.id } });
    expect(events.map((e) => e.action)).toEqual(["codehost_integration.create"]);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("creates an app integration with its private key encrypted", async () => {
    const res = await appIntegration();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ installation_id: "31337", api_base_url: host.url });
    expect(res.text).not.toContain("PRIVATE KEY");
    const row = await testDb().codehostIntegration.findUniqueOrThrow({
      where: { id: res.body.id },
    });
    expect(row.appId).toBe("901");
    expect(row.privateKeyEncrypted).not.toContain("PRIVATE KEY");
    expect(decrypt(row.privateKeyEncrypted!)).toBe(app.privateKey);
  });

  it("lists the organization's installations oldest first", async () => {
    const org = await createTenant();
    const first = await tokenIntegration({ name: "first" }, org.keys.admin);
    const second = await tokenIntegration({ name: "second" }, org.keys.admin);
    const list = await api("/v1/integrations/codehost/install", { key: org.keys.viewer });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: first.body.id, installation_id: null, name: "first" },
      { id: second.body.id, installation_id: null, name: "second" },
    ]);
    expect(list.text).not.toContain(TOKEN);
    const foreign = await api("/v1/integrations/codehost/install", { key: other.keys.viewer });
    expect(foreign.body.map((i: { id: string }) => i.id)).not.toContain(first.body.id);
  });

  it("refuses incomplete or mixed credentials (400) and bad fields (422)", async () => {
    const base = { name: "x", api_base_url: host.url };
    for (const body of [
      base,
      { ...base, token: TOKEN, app_id: "1" },
      { ...base, app_id: "1", private_key: app.privateKey },
      { ...base, app_id: "1", installation_id: "2" },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(Object.keys(body))).toBe(400);
      expect(typeof res.body.detail).toBe("string");
      expect(res.text).not.toContain(TOKEN);
    }
    for (const [field, value] of [
      ["api_base_url", "ftp://codehost.example"],
      ["api_base_url", "codehost.example"],
      ["name", ""],
      ["installation_id", "abc"],
    ] as const) {
      const res = await create({ ...base, token: TOKEN, [field]: value });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", field]);
    }
    const badKey = await create({
      ...base,
      app_id: "1",
      private_key: "not a key",
      installation_id: "2",
    });
    expect(badKey.status).toBe(422);
    expect(badKey.body.detail[0].loc).toEqual(["body", "private_key"]);
  });

  it("answers 401 without credentials and 403 for viewer writes", async () => {
    expect((await api("/v1/integrations/codehost/install")).status).toBe(401);
    expect((await tokenIntegration({}, tenant.keys.viewer)).status).toBe(403);
    expect(
      (await api("/v1/integrations/codehost/install", { key: tenant.keys.viewer })).status,
    ).toBe(200);
  });
});

describe("REST /v1/integrations/forge/codehost/{integration_id}/repos", () => {
  it("lists every repository across pages, sorted by owner then name", async () => {
    const integration = await tokenIntegration();
    host.requests.length = 0;
    const res = await repos(integration.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(host.repos.length);
    expect(host.repos.length).toBeGreaterThan(100 + 50);
    expect(host.requests.filter((r) => r.startsWith("GET /user/repos"))).toEqual([
      "GET /user/repos?per_page=100",
      "GET /user/repos?per_page=100&page=2",
    ]);
    expect(res.body).toEqual([...res.body].sort(byOwnerThenName));
    expect(
      res.body.slice(0, 5).map((r: { owner: string; name: string }) => `${r.owner}/${r.name}`),
    ).toEqual([
      "acme/agent-chat",
      "acme/research-agent",
      "acme/support-bot",
      "beta-labs/Eval-Harness",
      "beta-labs/rag-server",
    ]);
    expect(res.body.at(-1)).toMatchObject({ owner: "Zeta", name: "no-config" });
    expect(res.body.find((r: { id: number }) => r.id === 1005)).toEqual({
      host_integration_id: integration.body.id,
      id: 1005,
      name: "Eval-Harness",
      owner: "beta-labs",
      url: `${host.url}/beta-labs/Eval-Harness`,
      default_branch: "dev",
    });
    expect(res.text).not.toContain(TOKEN);
  });

  it("lists through an app installation (/installation/repositories)", async () => {
    const integration = await appIntegration();
    host.requests.length = 0;
    const res = await repos(integration.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(host.repos.length);
    expect(host.requests).toEqual([
      "POST /app/installations/31337/access_tokens",
      "GET /installation/repositories?per_page=100",
      "GET /installation/repositories?per_page=100&page=2",
    ]);
  });

  it("answers 404 for unknown or foreign integrations and 422 for a bad id", async () => {
    const missing = "0190a5b2-0000-7000-8000-000000000000";
    const unknown = await repos(missing);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(`Integration ${missing} not found.`);
    const mine = await tokenIntegration();
    const foreign = await repos(mine.body.id, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`Integration ${mine.body.id} not found.`);
    const bad = await repos("not-a-uuid");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["path", "integration_id"]);
    expect((await api(`/v1/integrations/forge/codehost/${missing}/repos`)).status).toBe(401);
  });

  it("answers 502 when a page fails, the token is revoked or the host is gone", async () => {
    const integration = await tokenIntegration({ token: REVOKABLE });
    host.setFailPage(2);
    const failing = await repos(integration.body.id);
    host.setFailPage(null);
    expect(failing.status).toBe(502);
    expect(failing.body.detail).toBe("The code host failed with HTTP 500.");

    host.setRevoked(REVOKABLE);
    const revoked = await repos(integration.body.id);
    expect(revoked.status).toBe(502);
    expect(revoked.body.detail).toMatch(/refused the integration's credentials \(HTTP 401\)/);
    expect(revoked.text).not.toContain(REVOKABLE);

    const gone = await startCodehostServer({ tokens: [TOKEN] });
    const unreachable = await tokenIntegration({ api_base_url: gone.url });
    await gone.stop();
    const res = await repos(unreachable.body.id);
    expect(res.status).toBe(502);
    expect(res.body.detail).toBe("The code host could not be reached.");
  });
});

describe("tRPC integrations", () => {
  it("uses the same services, roles and tenancy", async () => {
    const editor = createCaller({ db: testDb(), requestId: "c1", actor: tenant.actors.admin });
    const wsAdmin = createCaller({
      db: testDb(),
      requestId: "c0",
      actor: tenant.actors.workspaceAdmin,
    });
    await expect(
      wsAdmin.codehostIntegrations.create({ name: "x", api_base_url: host.url, token: TOKEN }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const created = await editor.codehostIntegrations.create({
      name: "via trpc",
      api_base_url: host.url,
      token: TOKEN,
    });
    expect(JSON.stringify(created)).not.toContain(TOKEN);
    expect((await editor.codehostIntegrations.list()).map((i) => i.id)).toContain(created.id);
    const listed = await editor.codehostIntegrations.listRepositories({
      integrationId: created.id,
    });
    expect(listed).toHaveLength(host.repos.length);

    host.setRevoked(TOKEN);
    await expect(
      editor.codehostIntegrations.listRepositories({ integrationId: created.id }),
    ).rejects.toMatchObject({ code: "BAD_GATEWAY" });
    host.setRevoked(TOKEN, false);

    const viewer = createCaller({ db: testDb(), requestId: "c2", actor: tenant.actors.viewer });
    await expect(
      viewer.codehostIntegrations.create({ name: "x", api_base_url: host.url, token: TOKEN }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stranger = createCaller({ db: testDb(), requestId: "c3", actor: other.actors.admin });
    await expect(
      stranger.codehostIntegrations.listRepositories({ integrationId: created.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
