import { beforeAll, describe, expect, inject, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import type { CreateDeploymentInput } from "../../src/schemas/deployments";
import { DEFAULT_TOKEN } from "../../testing/codehost-server";
import { createIntegrationRow, validDeployment } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// The URL rule at every door that stores a URL a browser, a redirect or the Ingress later gets
// (issue 23, finding 5): OAuth providers, code-host integrations and custom_url, REST and tRPC.

/** Script and document schemes, also disguised by case, a leading space or a tab. */
const SCRIPT_URLS = [
  "javascript:alert(document.domain)//",
  "data:text/html,<script>alert(document.domain)</script>",
  " JavaScript:alert(document.domain)//",
  "java\tscript:alert(document.domain)//",
];
/** A tab the URL parser drops: the text stored would not be the URL a browser reads. */
const tabbed = (url: string) => url.replace("://", "://\t");

let tenant: Tenant;
const caller = () =>
  createCaller({ db: testDb(), requestId: "url-rule", actor: tenant.actors.admin });

beforeAll(async () => {
  tenant = await createTenant();
});

function expectRefused(res: { status: number; body: any; text: string }, loc: string[]) {
  expect(res.status, res.text).toBe(422);
  expect(res.body.detail).toContainEqual(expect.objectContaining({ loc, type: "url_parsing" }));
  expect(res.body.code).toBeUndefined();
}

describe("OAuth providers", () => {
  let seq = 0;
  const provider = (overrides: Record<string, unknown> = {}) => ({
    provider_id: `url-rule-${seq++}`,
    name: "Example",
    client_id: "client-1",
    client_secret: "a-client-secret",
    auth_url: "https://login.example.com/authorize",
    token_url: "https://login.example.com/token",
    ...overrides,
  });
  const bad = [...SCRIPT_URLS, tabbed("https://login.example.com/authorize")];

  it.each(["auth_url", "token_url", "mcp_server_url"])(
    "REST create and PATCH refuse %s (422 naming it)",
    async (field) => {
      const ok = await api("/v2/auth/providers", {
        key: tenant.keys.admin,
        method: "POST",
        body: provider(),
      });
      expect(ok.status, ok.text).toBe(201);
      for (const url of bad) {
        const created = await api("/v2/auth/providers", {
          key: tenant.keys.admin,
          method: "POST",
          body: provider({ [field]: url }),
        });
        expectRefused(created, ["body", field]);
        const patched = await api(`/v2/auth/providers/${ok.body.provider_id}`, {
          key: tenant.keys.admin,
          method: "PATCH",
          body: { [field]: url },
        });
        expectRefused(patched, ["body", field]);
      }
      const row = await testDb().oAuthProvider.findUniqueOrThrow({ where: { id: ok.body.id } });
      expect(row.authUrl).toBe("https://login.example.com/authorize");
      expect(row.mcpServerUrl).toBeNull();
    },
  );

  it("tRPC create and update refuse them (BAD_REQUEST)", async () => {
    const ok = await caller().oauthProviders.create(provider());
    for (const url of bad) {
      await expect(
        caller().oauthProviders.create(provider({ auth_url: url })),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        caller().oauthProviders.update({ providerId: ok.provider_id, patch: { auth_url: url } }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const count = await testDb().oAuthProvider.count({
      where: {
        organizationId: tenant.organizationId,
        authUrl: { not: { startsWith: "https://" } },
      },
    });
    expect(count).toBe(0);
  });
});

describe("code-host integrations", () => {
  const bad = () => [...SCRIPT_URLS, tabbed(inject("codehostUrl"))];
  let seq = 0;

  it("REST create refuses api_base_url (422 naming it), saving nothing", async () => {
    for (const url of bad()) {
      const res = await api("/v1/integrations/codehost", {
        key: tenant.keys.admin,
        method: "POST",
        body: { name: `url rule ${seq++}`, api_base_url: url, token: DEFAULT_TOKEN },
      });
      expectRefused(res, ["body", "api_base_url"]);
    }
    const saved = await testDb().codehostIntegration.count({
      where: { organizationId: tenant.organizationId },
    });
    expect(saved).toBe(0);
  });

  it("tRPC create and update refuse it (BAD_REQUEST)", async () => {
    const integrationId = await createIntegrationRow(testDb(), tenant.organizationId);
    for (const url of bad()) {
      await expect(
        caller().codehostIntegrations.create({
          name: `url rule ${seq++}`,
          api_base_url: url,
          token: DEFAULT_TOKEN,
        }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        caller().codehostIntegrations.update({
          integration_id: integrationId,
          name: "renamed",
          api_base_url: url,
        }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const row = await testDb().codehostIntegration.findUniqueOrThrow({
      where: { id: integrationId },
    });
    expect(row.apiBaseUrl).toBe(inject("codehostUrl"));
  });
});

describe("source_config.custom_url", () => {
  /** Also refused: hosts an Ingress cannot take (an IP address, a wildcard) and credentials. */
  const bad = [
    ...SCRIPT_URLS,
    tabbed("https://agent.example.com"),
    "http://10.0.0.1/",
    "http://*.example.com/",
    "https://user:secret@agent.example.com/",
    "//agent.example.com",
  ];
  const body = (custom_url?: string) =>
    validDeployment("internal_template", custom_url ? { source_config: { custom_url } } : {});
  const loc = ["body", "source_config", "custom_url"];

  it("REST create and PATCH refuse it (422 naming it); http(s) DNS hosts are kept", async () => {
    for (const url of bad)
      expectRefused(
        await api("/v2/deployments", { key: tenant.keys.editor, method: "POST", body: body(url) }),
        loc,
      );
    const created = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: body("http://cli-agent.localhost"),
    });
    expect(created.status, created.text).toBe(201);
    for (const url of bad) {
      const res = await api(`/v2/deployments/${created.body.id}`, {
        key: tenant.keys.editor,
        method: "PATCH",
        body: { source_config: { custom_url: url } },
      });
      expectRefused(res, loc);
    }
    const kept = await api(`/v2/deployments/${created.body.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_config: { custom_url: "HTTPS://Agent.Example.com:8443/" } },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.source_config.custom_url).toBe("HTTPS://Agent.Example.com:8443/");
  });

  it("tRPC create and patch refuse it (BAD_REQUEST)", async () => {
    const editor = createCaller({
      db: testDb(),
      requestId: "url-rule",
      actor: tenant.actors.editor,
    });
    const created = await editor.deployments.create(body() as CreateDeploymentInput);
    for (const url of bad) {
      await expect(
        editor.deployments.create(body(url) as CreateDeploymentInput),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        editor.deployments.patch({ id: created.id, patch: { source_config: { custom_url: url } } }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    const rows = await testDb().deployment.findMany({ where: { workspaceId: tenant.workspaceId } });
    for (const row of rows)
      expect((row.sourceConfig as { custom_url?: string }).custom_url ?? "").not.toMatch(
        /script|data:|10\.0|\*|secret|\t/i,
      );
  });
});
