import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const SECRET = "s3cr3t-client-value-never-shown";
const FIELDS = [
  "auth_url",
  "client_id",
  "code_challenge_method",
  "created_at",
  "id",
  "is_dynamic_client",
  "mcp_server_url",
  "name",
  "organization_id",
  "provider_id",
  "provider_type",
  "token_endpoint_auth_method",
  "token_url",
  "updated_at",
  "uses_pkce",
];

let seq = 0;
function provider(overrides: Record<string, unknown> = {}) {
  return {
    provider_id: `provider-${seq++}`,
    name: "Example",
    client_id: "client-123",
    auth_url: "https://login.example.com/authorize",
    token_url: "https://login.example.com/token",
    client_secret: SECRET,
    ...overrides,
  };
}

const create = (body: unknown, key = tenant.keys.admin) =>
  api("/v2/auth/providers", { key, method: "POST", body });
const patch = (providerId: string, body: unknown, key = tenant.keys.admin) =>
  api(`/v2/auth/providers/${providerId}`, { key, method: "PATCH", body });
const storedRow = (id: string) => testDb().oAuthProvider.findUniqueOrThrow({ where: { id } });

describe("REST /v2/auth/providers", () => {
  it("creates with the spec's defaults and exact fields, never returning the secret", async () => {
    const res = await create(provider({ provider_id: "github-main" }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(FIELDS);
    expect(res.body).toMatchObject({
      organization_id: tenant.organizationId,
      provider_id: "github-main",
      uses_pkce: false,
      code_challenge_method: "S256",
      token_endpoint_auth_method: "client_secret_post",
      is_dynamic_client: false,
      provider_type: null,
      mcp_server_url: null,
    });
    expect(res.text).not.toContain(SECRET);

    const row = await storedRow(res.body.id);
    expect(row.clientSecretEncrypted).not.toContain(SECRET);
    expect(decrypt(row.clientSecretEncrypted!)).toBe(SECRET);

    const read = await api("/v2/auth/providers/github-main", { key: tenant.keys.viewer });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect(read.text).not.toContain(SECRET);
  });

  it("lists oldest first, scoped to the organization", async () => {
    const a = await create(provider());
    const b = await create(provider({ provider_type: "slack", uses_pkce: true }));
    expect(b.body).toMatchObject({ provider_type: "slack", code_challenge_method: "S256" });
    const list = await api("/v2/auth/providers", { key: tenant.keys.viewer });
    expect(list.status).toBe(200);
    const ids = list.body.map((p: { id: string }) => p.id);
    expect(ids.indexOf(a.body.id)).toBeLessThan(ids.indexOf(b.body.id));
    expect(list.text).not.toContain(SECRET);
    const foreign = await api("/v2/auth/providers", { key: other.keys.viewer });
    expect(foreign.body.map((p: { id: string }) => p.id)).not.toContain(a.body.id);

    // Another workspace of the same organization shares the organization's providers.
    const sibling = await createTenant(testDb(), tenant.organizationId);
    const shared = await api(`/v2/auth/providers/${a.body.provider_id}`, {
      key: sibling.keys.viewer,
    });
    expect(shared.status).toBe(200);
  });

  it("patches fields, replaces the write-only secret, and deletes", async () => {
    const created = await create(provider({ mcp_server_url: "https://mcp.example.com/sse" }));
    const id = created.body.provider_id;
    const res = await patch(id, {
      name: "Renamed",
      client_secret: "replacement-secret-value",
      mcp_server_url: null,
      provider_type: "microsoft",
      is_dynamic_client: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      mcp_server_url: null,
      provider_type: "microsoft",
      is_dynamic_client: true,
    });
    expect(res.text).not.toContain("replacement-secret-value");
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.body.updated_at),
    );
    expect(decrypt((await storedRow(created.body.id)).clientSecretEncrypted!)).toBe(
      "replacement-secret-value",
    );

    const unchangedSecret = await patch(id, { client_id: "client-456" });
    expect(unchangedSecret.status).toBe(200);
    expect(decrypt((await storedRow(created.body.id)).clientSecretEncrypted!)).toBe(
      "replacement-secret-value",
    );

    const del = await api(`/v2/auth/providers/${id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await api(`/v2/auth/providers/${id}`, { key: tenant.keys.viewer })).status).toBe(404);
  });

  it("audits every mutation without the secret", async () => {
    const created = await create(provider());
    await patch(created.body.provider_id, { client_secret: "audited-new-secret" });
    await api(`/v2/auth/providers/${created.body.provider_id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    const events = await testDb().auditEvent.findMany({
      where: { targetId: created.body.id },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual([
      "oauth_provider.create",
      "oauth_provider.update",
      "oauth_provider.delete",
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("audited-new-secret");
  });

  it("enforces provider_id uniqueness per organization (409)", async () => {
    await create(provider({ provider_id: "dup" }));
    const dup = await create(provider({ provider_id: "dup" }));
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain("dup");
    expect((await create(provider({ provider_id: "dup" }), other.keys.admin)).status).toBe(201);
  });

  it("accepts only absolute https URLs, http only for localhost (422 with loc)", async () => {
    for (const [field, value] of [
      ["auth_url", "http://login.example.com/authorize"],
      ["token_url", "/oauth/token"],
      ["token_url", "ftp://login.example.com/token"],
      ["mcp_server_url", "not a url"],
    ] as const) {
      const res = await create(provider({ [field]: value }));
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", field]);
    }
    const local = await create(
      provider({ auth_url: "http://localhost:9000/auth", token_url: "http://127.0.0.1:9000/t" }),
    );
    expect(local.status).toBe(201);
    const badPatch = await patch(local.body.provider_id, { token_url: "http://example.com/t" });
    expect(badPatch.status).toBe(422);
    expect(badPatch.body.detail[0].loc).toEqual(["body", "token_url"]);
  });

  it("validates enums and required fields (422)", async () => {
    for (const [field, value] of [
      ["token_endpoint_auth_method", "private_key_jwt"],
      ["code_challenge_method", "S512"],
      ["provider_type", "github"],
      ["uses_pkce", "yes"],
      ["provider_id", "has space"],
    ] as const) {
      const res = await create(provider({ [field]: value }));
      expect(res.status, field).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", field]);
    }
    const missing = await create({ name: "x" });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(
      expect.arrayContaining(["provider_id", "client_id", "auth_url", "token_url"]),
    );
    const malformed = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].type).toBe("json_invalid");
  });

  it("applies the client-authentication rules on create (400)", async () => {
    const publicClient = await create(
      provider({
        client_secret: undefined,
        token_endpoint_auth_method: "none",
        uses_pkce: true,
        code_challenge_method: "plain",
      }),
    );
    expect(publicClient.status).toBe(201);
    expect(publicClient.body.code_challenge_method).toBe("plain");
    expect((await storedRow(publicClient.body.id)).clientSecretEncrypted).toBeNull();

    const noPkce = await create(
      provider({ client_secret: null, token_endpoint_auth_method: "none" }),
    );
    expect(noPkce.status).toBe(400);
    expect(noPkce.body.detail).toMatch(/uses_pkce must be true/);

    const secretWithNone = await create(
      provider({ token_endpoint_auth_method: "none", uses_pkce: true }),
    );
    expect(secretWithNone.status).toBe(400);
    expect(secretWithNone.body.detail).toMatch(/client_secret must not be sent/);
    expect(secretWithNone.text).not.toContain(SECRET);

    for (const method of ["client_secret_basic", "client_secret_post", undefined]) {
      const res = await create(
        provider({ client_secret: undefined, token_endpoint_auth_method: method }),
      );
      expect(res.status, String(method)).toBe(400);
      expect(res.body.detail).toMatch(/client_secret is required/);
    }
  });

  it("applies the client-authentication rules on patch (400)", async () => {
    const pub = await create(
      provider({ client_secret: undefined, token_endpoint_auth_method: "none", uses_pkce: true }),
    );
    const id = pub.body.provider_id;
    const needsSecret = await patch(id, { token_endpoint_auth_method: "client_secret_basic" });
    expect(needsSecret.status).toBe(400);
    expect(needsSecret.body.detail).toMatch(/client_secret is required/);
    expect((await patch(id, { uses_pkce: false })).status).toBe(400);
    expect((await patch(id, { client_secret: "no-secret-for-public" })).status).toBe(400);

    const switched = await patch(id, {
      token_endpoint_auth_method: "client_secret_basic",
      client_secret: "now-confidential",
    });
    expect(switched.status).toBe(200);
    expect(switched.body.token_endpoint_auth_method).toBe("client_secret_basic");

    expect((await patch(id, { client_secret: null })).status).toBe(400);
    const noPkce = await patch(id, { uses_pkce: false });
    expect(noPkce.status).toBe(200);
    expect(noPkce.body.code_challenge_method).toBe("S256");

    const back = await patch(id, { token_endpoint_auth_method: "none", uses_pkce: true });
    expect(back.status).toBe(200);
    expect(back.body.code_challenge_method).toBe("S256");
    expect((await storedRow(pub.body.id)).clientSecretEncrypted).toBeNull();

    const rename = await patch(id, { provider_id: "something-else" });
    expect(rename.status).toBe(400);
    expect((await patch(id, { provider_id: id })).status).toBe(200);
  });

  it("answers 401 without credentials, 403 for viewer writes, 404 across organizations", async () => {
    expect((await api("/v2/auth/providers")).status).toBe(401);
    expect((await api("/v2/auth/providers", { key: "hgr_not_a_real_key" })).status).toBe(401);

    const mine = await create(provider());
    const id = mine.body.provider_id;
    expect((await create(provider(), tenant.keys.viewer)).status).toBe(403);
    expect((await patch(id, { name: "x" }, tenant.keys.viewer)).status).toBe(403);
    const viewerDelete = await api(`/v2/auth/providers/${id}`, {
      key: tenant.keys.viewer,
      method: "DELETE",
    });
    expect(viewerDelete.status).toBe(403);

    const foreignGet = await api(`/v2/auth/providers/${id}`, { key: other.keys.admin });
    expect(foreignGet.status).toBe(404);
    expect(foreignGet.body.detail).toBe(`OAuth provider ${id} not found.`);
    expect((await patch(id, { name: "x" }, other.keys.admin)).status).toBe(404);
    expect(
      (await api(`/v2/auth/providers/${id}`, { key: other.keys.admin, method: "DELETE" })).status,
    ).toBe(404);
    expect((await api(`/v2/auth/providers/${id}`, { key: tenant.keys.viewer })).status).toBe(200);

    const put = await api("/v2/auth/providers", { key: tenant.keys.admin, method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});

describe("tRPC oauthProviders", () => {
  it("uses the same service, roles and tenancy", async () => {
    // The organization admin changes providers; a workspace editor cannot.
    const editor = createCaller({ db: testDb(), requestId: "p1", actor: tenant.actors.admin });
    const wsEditor = createCaller({ db: testDb(), requestId: "p0", actor: tenant.actors.editor });
    await expect(wsEditor.oauthProviders.create(provider())).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const created = await editor.oauthProviders.create(provider({ provider_id: "trpc-provider" }));
    expect(JSON.stringify(created)).not.toContain(SECRET);
    expect(await editor.oauthProviders.get({ providerId: "trpc-provider" })).toEqual(created);
    expect((await editor.oauthProviders.list()).map((p) => p.id)).toContain(created.id);
    const updated = await editor.oauthProviders.update({
      providerId: "trpc-provider",
      patch: { name: "Via tRPC" },
    });
    expect(updated.name).toBe("Via tRPC");
    await expect(
      editor.oauthProviders.update({
        providerId: "trpc-provider",
        patch: { token_endpoint_auth_method: "none" },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const viewer = createCaller({ db: testDb(), requestId: "p2", actor: tenant.actors.viewer });
    await expect(viewer.oauthProviders.create(provider())).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const stranger = createCaller({ db: testDb(), requestId: "p3", actor: other.actors.admin });
    await expect(
      stranger.oauthProviders.get({ providerId: "trpc-provider" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const anonymous = createCaller({ db: testDb(), requestId: "p4", actor: null });
    await expect(anonymous.oauthProviders.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    await editor.oauthProviders.delete({ providerId: "trpc-provider" });
    await expect(editor.oauthProviders.get({ providerId: "trpc-provider" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
