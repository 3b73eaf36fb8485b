import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { startMetadataServer, type MetadataServer } from "../../testing/metadata-server";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// The URL rule where URLs come from a remote document (MCP and OAuth discovery) and where a
// stored one is handed to a browser (authenticate, the callback's redirect): issue 23, finding 5.
// The documents come from a hand-written server on loopback.

const SCRIPT = "javascript:alert(document.domain)//";
const NOT_HTTPS = "is not an absolute https URL (http only for localhost)";

let tenant: Tenant;
let server: MetadataServer;

beforeAll(async () => {
  tenant = await createTenant();
  server = await startMetadataServer();
});
afterAll(() => server?.stop());

const discover = (provider_id: string) =>
  api("/v2/auth/providers/mcp-discover", {
    key: tenant.keys.admin,
    method: "POST",
    body: { provider_id, name: provider_id, mcp_server_url: server.mcpUrl },
  });
const storedProvider = (providerId: string) =>
  testDb().oAuthProvider.findFirst({
    where: { organizationId: tenant.organizationId, providerId },
  });

describe("MCP discovery (RFC 9728 -> RFC 8414 -> RFC 7591)", () => {
  beforeEach(() => {
    server.metadata = {};
    server.resource = {};
  });

  it("saves the provider when every URL of the documents keeps the rule", async () => {
    const res = await discover("mcp-good");
    expect(res.status, res.text).toBe(201);
    expect(res.body.auth_url).toBe(`${server.issuer}/auth`);
  });

  it.each([
    ["authorization_endpoint", { metadata: { authorization_endpoint: SCRIPT } }],
    [
      "token_endpoint",
      { metadata: { token_endpoint: "data:text/html,<script>alert(1)</script>" } },
    ],
    ["registration_endpoint", { metadata: { registration_endpoint: " JAVASCRIPT:alert(1)//" } }],
    ["revocation_endpoint", { metadata: { revocation_endpoint: "java\tscript:alert(1)//" } }],
    ["userinfo_endpoint", { metadata: { userinfo_endpoint: "JavaScript:alert(1)//" } }],
    ["authorization_servers", { resource: { authorization_servers: [SCRIPT] } }],
  ])(
    "refuses %s breaking the rule: 502 naming it, nothing registered or stored",
    async (field, docs) => {
      Object.assign(server, docs);
      const registrations = server.registrations;
      const providerId = `mcp-${field.replaceAll("_", "-")}`;
      const res = await discover(providerId);
      expect(res.status, res.text).toBe(502);
      expect(res.body.code).toBe("bad_gateway");
      expect(res.body.detail).toContain(`${field} ${NOT_HTTPS}`);
      expect(res.text).not.toMatch(/script|data:/i);
      expect(server.registrations).toBe(registrations);
      expect(await storedProvider(providerId)).toBeNull();
    },
  );
});

describe("a stored auth_url breaking the rule (a row saved before it)", () => {
  const cases = [
    ["old-javascript", SCRIPT],
    ["old-data", "data:text/html,<script>alert(document.domain)</script>"],
    ["old-mixed-case", " JavaScript:alert(document.domain)//"],
  ] as const;

  beforeAll(async () => {
    for (const [providerId, authUrl] of cases)
      await testDb().oAuthProvider.create({
        data: {
          organizationId: tenant.organizationId,
          providerId,
          name: providerId,
          clientId: "client-1",
          authUrl,
          tokenUrl: "https://login.example.com/token",
          usesPkce: true,
          codeChallengeMethod: "S256",
          tokenEndpointAuthMethod: "none",
        },
      });
  });

  it.each(cases)("authenticate never answers it (%s): REST 502, tRPC BAD_GATEWAY", async (id) => {
    const detail = `OAuth provider "${id}": its auth_url ${NOT_HTTPS}: an organization admin must correct it before anyone can connect.`;
    const res = await api("/v2/auth/authenticate", {
      key: tenant.keys.editor,
      method: "POST",
      body: { provider: id, user_id: "someone", scopes: ["openid"] },
    });
    expect(res.status, res.text).toBe(502);
    expect(res.body).toEqual({ detail, code: "bad_gateway" });

    const connect = createCaller({
      db: testDb(),
      requestId: "url-rule",
      actor: tenant.actors.editor,
      origin: "http://localhost:3000",
    }).agentAuth.connect({ providerId: id, scopes: [] });
    await expect(connect).rejects.toMatchObject({ code: "BAD_GATEWAY", message: detail });

    const flows = await testDb().oAuthFlow.count({
      where: { workspaceId: tenant.workspaceId, provider: { providerId: id } },
    });
    expect(flows).toBe(0);
  });
});

describe("OAuth discovery while finishing a flow", () => {
  let bad: MetadataServer;
  beforeAll(async () => {
    bad = await startMetadataServer();
    bad.metadata = { revocation_endpoint: SCRIPT };
    const res = await api("/v2/auth/providers", {
      key: tenant.keys.admin,
      method: "POST",
      body: {
        provider_id: "bad-metadata",
        name: "Bad metadata",
        client_id: "client-1",
        auth_url: `${bad.issuer}/auth`,
        token_url: `${bad.issuer}/token`,
        token_endpoint_auth_method: "none",
        uses_pkce: true,
      },
    });
    expect(res.status, res.text).toBe(201);
  });
  afterAll(() => bad?.stop());

  const startFlow = async () => {
    const res = await api("/v2/auth/authenticate", {
      key: tenant.keys.editor,
      method: "POST",
      body: { provider: "bad-metadata", user_id: "someone", force_new: true },
    });
    expect(res.status, res.text).toBe(200);
    return new URL(res.body.url).searchParams.get("state")!;
  };
  const message = `Authorization server metadata (RFC 8414): revocation_endpoint ${NOT_HTTPS}.`;

  it("refuses metadata breaking the rule (502 naming the field), and redirects only home", async () => {
    const posted = await api("/v2/auth/callback/bad-metadata", {
      method: "POST",
      body: { code: "a-code", state: await startFlow() },
    });
    expect(posted.status, posted.text).toBe(502);
    expect(posted.body).toEqual({ detail: message, code: "bad_gateway" });

    const query = new URLSearchParams({ code: "a-code", state: await startFlow() });
    const redirected = await fetch(`${inject("baseUrl")}/v2/auth/callback/bad-metadata?${query}`, {
      redirect: "manual",
    });
    expect(redirected.status).toBe(303);
    const location = redirected.headers.get("location")!;
    expect(location.startsWith("/auth/complete?")).toBe(true);
    expect(new URLSearchParams(location.split("?")[1]).get("message")).toBe(message);
  });
});
