import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_TOKEN,
  startCodehostServer,
  type CodehostServer,
} from "../../testing/codehost-server";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// Organization resources (OAuth providers, code-host integrations) need organization roles
// (issue 11, finding 1): reading needs membership, changing needs organization admin (403
// otherwise), another organization's object is a 404.

let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;
let integrationId: string;
let seq = 0;

const provider = () => ({
  provider_id: `org-roles-${Date.now().toString(36)}-${seq++}`,
  name: "Example",
  client_id: "client-123",
  auth_url: "https://login.example.com/authorize",
  token_url: "https://login.example.com/token",
  client_secret: "s3cret-value",
});

async function newProvider(): Promise<string> {
  const res = await api("/v2/auth/providers", {
    key: tenant.keys.admin,
    method: "POST",
    body: provider(),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.provider_id;
}

async function newIntegration(): Promise<string> {
  const res = await api("/v1/integrations/codehost", {
    key: tenant.keys.admin,
    method: "POST",
    body: { name: `to delete ${randomUUID()}`, api_base_url: host.url, token: DEFAULT_TOKEN },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  host = await startCodehostServer();
  const res = await api("/v1/integrations/codehost", {
    key: tenant.keys.admin,
    method: "POST",
    body: { name: "org host", api_base_url: host.url, token: DEFAULT_TOKEN },
  });
  expect(res.status, res.text).toBe(201);
  integrationId = res.body.id;
});
afterAll(() => host?.stop());

type Caller = "orgAdmin" | "workspaceAdmin" | "editor" | "viewer" | "otherOrg";
const keyOf = (caller: Caller) =>
  ({
    orgAdmin: tenant.keys.admin,
    workspaceAdmin: tenant.keys.workspaceAdmin,
    editor: tenant.keys.editor,
    viewer: tenant.keys.viewer,
    otherOrg: other.keys.admin,
  })[caller];

interface Row {
  route: string;
  request: () => Promise<{ path: string; method: string; body?: unknown }>;
  expected: Record<Caller, number>;
}

// "otherOrg" is an organization admin of another organization: creating makes its own resource
// (201), reading or changing this organization's is a 404.
const rows: Row[] = [
  {
    route: "GET /v2/auth/providers/{provider_id}",
    request: async () => ({ path: `/v2/auth/providers/${await newProvider()}`, method: "GET" }),
    expected: { orgAdmin: 200, workspaceAdmin: 200, editor: 200, viewer: 200, otherOrg: 404 },
  },
  {
    route: "POST /v2/auth/providers",
    request: async () => ({ path: "/v2/auth/providers", method: "POST", body: provider() }),
    expected: { orgAdmin: 201, workspaceAdmin: 403, editor: 403, viewer: 403, otherOrg: 201 },
  },
  {
    route: "PATCH /v2/auth/providers/{provider_id}",
    request: async () => ({
      path: `/v2/auth/providers/${await newProvider()}`,
      method: "PATCH",
      body: { name: "Renamed" },
    }),
    expected: { orgAdmin: 200, workspaceAdmin: 403, editor: 403, viewer: 403, otherOrg: 404 },
  },
  {
    route: "DELETE /v2/auth/providers/{provider_id}",
    request: async () => ({ path: `/v2/auth/providers/${await newProvider()}`, method: "DELETE" }),
    expected: { orgAdmin: 204, workspaceAdmin: 403, editor: 403, viewer: 403, otherOrg: 404 },
  },
  {
    route: "POST /v1/integrations/codehost",
    request: async () => ({
      path: "/v1/integrations/codehost",
      method: "POST",
      body: { name: "h", api_base_url: host.url, token: DEFAULT_TOKEN },
    }),
    expected: { orgAdmin: 201, workspaceAdmin: 403, editor: 403, viewer: 403, otherOrg: 201 },
  },
  {
    route: "GET /v1/integrations/codehost/{integration_id}",
    request: async () => ({ path: `/v1/integrations/codehost/${integrationId}`, method: "GET" }),
    expected: { orgAdmin: 200, workspaceAdmin: 200, editor: 200, viewer: 200, otherOrg: 404 },
  },
  {
    route: "DELETE /v1/integrations/codehost/{integration_id}",
    request: async () => ({
      path: `/v1/integrations/codehost/${await newIntegration()}`,
      method: "DELETE",
    }),
    expected: { orgAdmin: 204, workspaceAdmin: 403, editor: 403, viewer: 403, otherOrg: 404 },
  },
  {
    route: "GET /v1/integrations/forge/codehost/{integration_id}/repos",
    request: async () => ({
      path: `/v1/integrations/forge/codehost/${integrationId}/repos`,
      method: "GET",
    }),
    expected: { orgAdmin: 200, workspaceAdmin: 200, editor: 200, viewer: 200, otherOrg: 404 },
  },
];

const callers: Caller[] = ["orgAdmin", "workspaceAdmin", "editor", "viewer", "otherOrg"];

describe("organization-scoped routes × roles", () => {
  for (const row of rows) {
    it.each(callers)(`${row.route} as %s`, async (caller) => {
      const { path, method, body } = await row.request();
      const res = await api(path, { key: keyOf(caller), method, body });
      expect(res.status, res.text).toBe(row.expected[caller]);
      if (res.status === 403) expect(res.body.detail).toMatch(/organization admin role/);
    });
  }

  it("lists are the caller's organization's only, for every member", async () => {
    const mine = await newProvider();
    for (const caller of callers) {
      const providers = await api("/v2/auth/providers", { key: keyOf(caller) });
      const installs = await api("/v1/integrations/codehost/install", { key: keyOf(caller) });
      expect(providers.status).toBe(200);
      expect(installs.status).toBe(200);
      const ids = providers.body.map((p: { provider_id: string }) => p.provider_id);
      const integrationIds = installs.body.map((i: { id: string }) => i.id);
      expect(ids.includes(mine)).toBe(caller !== "otherOrg");
      expect(integrationIds.includes(integrationId)).toBe(caller !== "otherOrg");
    }
  });

  it("states the organization role in the OpenAPI document", async () => {
    const doc = (await api("/openapi.json")).body;
    expect(doc.paths["/v2/auth/providers"].post["x-hangar-org-role"]).toBe("admin");
    expect(doc.paths["/v2/auth/providers/{provider_id}"].delete["x-hangar-org-role"]).toBe("admin");
    expect(doc.paths["/v1/integrations/codehost"].post["x-hangar-org-role"]).toBe("admin");
    expect(
      doc.paths["/v1/integrations/codehost/{integration_id}"].delete["x-hangar-org-role"],
    ).toBe("admin");
  });
});
