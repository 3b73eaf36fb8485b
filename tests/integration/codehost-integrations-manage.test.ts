import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { createCodehostDeployment } from "../helpers/codehost";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { uniqueName } from "../helpers/revision-fixtures";

// Managing integrations after registering them (issue 17): registration tries the credentials,
// and test, edit, rotate, webhook secret, delete and the wizard's source check.

const TOKEN = "cht_manage_token";
const NEXT_TOKEN = "cht_manage_token_next";

let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  host = await startCodehostServer({ tokens: [TOKEN, NEXT_TOKEN] });
});
afterAll(() => host?.stop());

const caller = (t: Tenant, role: keyof Tenant["actors"]) =>
  createCaller({ db: testDb(), requestId: `manage-${role}`, actor: t.actors[role] });
const register = (body: Record<string, unknown>) =>
  api("/v1/integrations/codehost", {
    key: tenant.keys.admin,
    method: "POST",
    body: { name: uniqueName("host"), api_base_url: host.url, token: TOKEN, ...body },
  });

describe("registration tries the credentials before saving", () => {
  it("refuses a wrong token, an unreachable host and a duplicate name, saving nothing", async () => {
    const before = await testDb().codehostIntegration.count({
      where: { organizationId: tenant.organizationId },
    });
    const wrong = await register({ token: "not-a-valid-token" });
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ["body", "token"] });
    expect(wrong.body.detail[0].msg).toMatch(/code host refused this token/);
    expect(wrong.text).not.toContain("not-a-valid-token");

    const gone = await startCodehostServer({ tokens: [TOKEN] });
    await gone.stop();
    const unreachable = await register({ api_base_url: gone.url });
    expect(unreachable.status, unreachable.text).toBe(422);
    expect(unreachable.body.detail[0]).toMatchObject({
      loc: ["body", "api_base_url"],
      msg: "The code host could not be reached.",
    });

    const metadata = await register({ api_base_url: "http://169.254.169.254/latest" });
    expect(metadata.status).toBe(422);
    expect(metadata.body.detail[0].loc).toEqual(["body", "api_base_url"]);
    expect(
      await testDb().codehostIntegration.count({
        where: { organizationId: tenant.organizationId },
      }),
    ).toBe(before);

    const name = uniqueName("Dup");
    expect((await register({ name })).status).toBe(201);
    const duplicate = await register({ name: name.toUpperCase() });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.detail).toContain(`"${name}" already exists`);
  });
});

describe("managing an integration over tRPC", () => {
  it("tests, edits, rotates the token, sets a webhook secret and deletes when unused", async () => {
    const admin = caller(tenant, "admin");
    const name = uniqueName("managed");
    const created = await admin.codehostIntegrations.create({
      name,
      api_base_url: host.url,
      token: TOKEN,
    });
    const detail = async () =>
      (await caller(tenant, "viewer").codehostIntegrations.details()).find(
        (i) => i.id === created.id,
      )!;
    expect(await detail()).toMatchObject({
      name,
      api_base_url: host.url,
      auth: "token",
      has_webhook_secret: false,
      last_check_error: null,
      used_by: [],
    });
    expect((await detail()).last_checked_at).not.toBeNull();

    // Test connection remembers the outcome, good or bad.
    host.setRevoked(TOKEN);
    const failed = await admin.codehostIntegrations.test({ integrationId: created.id });
    host.setRevoked(TOKEN, false);
    expect(failed).toMatchObject({ ok: false });
    expect(failed.error).toMatch(/refused the integration's credentials \(HTTP 401\)/);
    expect((await detail()).last_check_error).toBe(failed.error);
    expect(await admin.codehostIntegrations.test({ integrationId: created.id })).toMatchObject({
      ok: true,
      error: null,
    });
    expect((await detail()).last_check_error).toBeNull();

    // Edit: a rename is audited with what changed; another integration's name is refused.
    const renamed = uniqueName("renamed");
    await admin.codehostIntegrations.update({
      integration_id: created.id,
      name: renamed,
      api_base_url: host.url,
    });
    const audit = await testDb().auditEvent.findFirstOrThrow({
      where: { targetId: created.id, action: "codehost_integration.update" },
    });
    expect(audit.data).toEqual({ name: renamed, changes: { name: { from: name, to: renamed } } });
    const sibling = await admin.codehostIntegrations.create({
      name: uniqueName("sibling"),
      api_base_url: host.url,
      token: TOKEN,
    });
    await expect(
      admin.codehostIntegrations.update({
        integration_id: sibling.id,
        name: renamed,
        api_base_url: host.url,
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });

    // Rotation: a token the host refuses is not stored; an accepted one is.
    await expect(
      admin.codehostIntegrations.rotateToken({ integration_id: created.id, token: "wrong" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await admin.codehostIntegrations.rotateToken({
      integration_id: created.id,
      token: NEXT_TOKEN,
    });
    const row = await testDb().codehostIntegration.findUniqueOrThrow({
      where: { id: created.id },
    });
    expect(decrypt(row.tokenEncrypted!)).toBe(NEXT_TOKEN);

    // The webhook secret is generated, shown once, stored encrypted; never in the audit.
    const { secret } = await admin.codehostIntegrations.regenerateWebhookSecret({
      integrationId: created.id,
    });
    expect(secret).toMatch(/^whsec_/);
    const withSecret = await testDb().codehostIntegration.findUniqueOrThrow({
      where: { id: created.id },
    });
    expect(decrypt(withSecret.webhookSecretEncrypted!)).toBe(secret);
    expect((await detail()).has_webhook_secret).toBe(true);
    const events = await testDb().auditEvent.findMany({ where: { targetId: created.id } });
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(NEXT_TOKEN);

    // Delete is refused while used, naming the deployment; allowed once it is gone.
    const deployment = await createCodehostDeployment(tenant.keys.admin, host, created.id);
    expect(await detail()).toMatchObject({
      used_by: [{ id: deployment.id, name: deployment.name }],
      used_elsewhere: 0,
    });
    // Another workspace of the organization sees that it is used, not by what.
    const neighbour = await createTenant(testDb(), tenant.organizationId);
    const seen = (await caller(neighbour, "viewer").codehostIntegrations.details()).find(
      (i) => i.id === created.id,
    );
    expect(seen).toMatchObject({ used_by: [], used_elsewhere: 1 });
    const refused = await api(`/v1/integrations/codehost/${created.id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Integration "${renamed}" is used by 1 deployment: ${deployment.name}. Delete it first.`,
    );
    await expect(
      admin.codehostIntegrations.delete({ integrationId: created.id }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await testDb().deployment.delete({ where: { id: deployment.id } });
    await admin.codehostIntegrations.delete({ integrationId: created.id });
    expect(
      (await admin.codehostIntegrations.details()).find((i) => i.id === created.id),
    ).toBeUndefined();
  });

  it("lets only organization admins change, and hides other organizations' integrations", async () => {
    const created = await caller(tenant, "admin").codehostIntegrations.create({
      name: uniqueName("guarded"),
      api_base_url: host.url,
      token: TOKEN,
    });
    const byId = { integrationId: created.id };
    const edit = { integration_id: created.id, name: "x", api_base_url: host.url };
    for (const role of ["workspaceAdmin", "editor", "viewer"] as const) {
      const c = caller(tenant, role);
      await expect(c.codehostIntegrations.test(byId)).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.codehostIntegrations.update(edit)).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(
        c.codehostIntegrations.rotateToken({ integration_id: created.id, token: TOKEN }),
      ).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.codehostIntegrations.regenerateWebhookSecret(byId)).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(c.codehostIntegrations.delete(byId)).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    }
    const stranger = caller(other, "admin");
    expect((await stranger.codehostIntegrations.details()).map((i) => i.id)).not.toContain(
      created.id,
    );
    for (const call of [
      () => stranger.codehostIntegrations.test(byId),
      () => stranger.codehostIntegrations.update(edit),
      () => stranger.codehostIntegrations.rotateToken({ integration_id: created.id, token: TOKEN }),
      () => stranger.codehostIntegrations.regenerateWebhookSecret(byId),
      () => stranger.codehostIntegrations.delete(byId),
      () =>
        stranger.codehostIntegrations.checkSource({
          integration_id: created.id,
          repo_url: `${host.url}/acme/support-bot`,
          repo_ref: "main",
          graph_config_path: "langgraph.json",
        }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

describe("the wizard's source check", () => {
  it("says which of branch and graph config file is missing", async () => {
    const integration = await caller(tenant, "admin").codehostIntegrations.create({
      name: uniqueName("source"),
      api_base_url: host.url,
      token: TOKEN,
    });
    const editor = caller(tenant, "editor");
    const check = (repo_ref: string, graph_config_path: string) =>
      editor.codehostIntegrations.checkSource({
        integration_id: integration.id,
        repo_url: `${host.url}/acme/support-bot`,
        repo_ref,
        graph_config_path,
      });
    await expect(check("main", "langgraph.json")).resolves.toBeUndefined();
    await expect(check("nonexistent-branch", "langgraph.json")).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      cause: {
        issues: [
          {
            loc: ["body", "source_revision_config", "repo_ref"],
            msg: 'Branch "nonexistent-branch" does not exist in acme/support-bot',
          },
        ],
      },
    });
    await expect(check("main", "graphs/missing.json")).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      cause: {
        issues: [
          {
            loc: ["body", "source_revision_config", "graph_config_path"],
            msg: 'No file "graphs/missing.json" on branch "main" of acme/support-bot',
          },
        ],
      },
    });
  });
});
