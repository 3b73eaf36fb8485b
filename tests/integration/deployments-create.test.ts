import { beforeAll, describe, expect, inject, it } from "vitest";
import type { DeploymentSource } from "../../src/schemas/deployments";
import { decrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import {
  bodyWithField,
  createIntegrationRow,
  disallowedFieldCases,
  fieldSamples,
  requiredFieldCases,
  uniqueName,
  validDeployment as valid,
} from "../helpers/deployments";
import { waitForRevision } from "../helpers/engine";
import { api } from "../helpers/http";

let tenant: Tenant;
let other: Tenant;
let integrationId: string;
let otherIntegrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  integrationId = await createIntegrationRow(testDb(), tenant.organizationId);
  otherIntegrationId = await createIntegrationRow(testDb(), other.organizationId);
});

const post = (body: unknown, key = tenant.keys.editor) =>
  api("/v2/deployments", { key, method: "POST", body });
const body = (source: DeploymentSource, overrides = {}) =>
  valid(source, overrides, { integrationId });

const deploymentKeys = [
  "active_revision_id",
  "created_at",
  "id",
  "image_version",
  "latest_revision_id",
  "name",
  "preview",
  "runtime",
  "secret_references",
  "secrets",
  "source",
  "source_config",
  "source_revision_config",
  "status",
  "tag_value_ids",
  "tenant_id",
  "tracked_packages",
  "updated_at",
];

const managed: DeploymentSource[] = [
  "codehost",
  "internal_container",
  "internal_source",
  "internal_template",
];
const withField = (source: DeploymentSource, field: string, value: unknown) =>
  bodyWithField(source, field, value, { integrationId });

describe("POST /v2/deployments (managed mode)", () => {
  it.each(managed)("creates a %s deployment with its first revision queued", async (source) => {
    const custom_url = "https://agent.example.com";
    const res = await post(body(source, { source_config: { custom_url } }));
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(deploymentKeys);
    expect(res.body).toMatchObject({
      source,
      tenant_id: tenant.workspaceId,
      status: "AWAITING_DATABASE",
      active_revision_id: null,
      runtime: null,
      secrets: [],
      secret_references: null,
      tag_value_ids: [],
    });
    expect(res.body.source_config).toMatchObject({ deployment_type: "dev", custom_url });
    const revisions = await testDb().revision.findMany({ where: { deploymentId: res.body.id } });
    expect(revisions).toEqual([
      expect.objectContaining({ id: res.body.latest_revision_id, number: 1 }),
    ]);
    // It was queued: the worker (not held here, so it may already have moved it) runs it to an
    // end (waitForRevision fails on a revision that never leaves QUEUED).
    await waitForRevision(res.body.latest_revision_id);
  });

  // internal_container without its only revision field is a create awaiting its image (5.2).
  const required = requiredFieldCases(managed).filter(
    ([source, field]) =>
      !(source === "internal_container" && field === "source_revision_config.image_uri"),
  );
  it.each(required)("%s without %s -> 400 naming it", async (source, field) => {
    for (const value of [undefined, null]) {
      const res = await post(withField(source, field, value));
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toContain(field);
    }
  });

  it.each(disallowedFieldCases(managed))("%s with %s -> 400 naming it", async (source, field) => {
    const res = await post(withField(source, field, fieldSamples[field]));
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail).toContain(field);
  });

  it("accepts every allowed codehost field; refuses build_on_push on a tag ref", async () => {
    const allowed = body("codehost", {
      source_config: { build_on_push: true, install_command: "uv sync", build_command: "make" },
      source_revision_config: { repo_ref: "refs/heads/main" },
    });
    expect((await post(allowed)).status).toBe(201);
    const tag = body("codehost", {
      source_config: { build_on_push: true },
      source_revision_config: { repo_ref: "refs/tags/v1.0.0" },
    });
    const res = await post(tag);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("build_on_push");
    tag.source_config.build_on_push = false;
    expect((await post(tag)).status).toBe(201);
  });

  it("refuses a repo_url that is not one of the integration's repositories (400)", async () => {
    const res = await post(
      body("codehost", { source_config: { repo_url: `${inject("codehostUrl")}/acme/not-there` } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("acme/not-there");
  });

  it("refuses external_container in managed mode, naming the mode", async () => {
    const res = await post(valid("external_container"));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("managed");
  });

  it("404s an unknown template and another organization's or unknown integration", async () => {
    const tpl = await post(body("internal_template", { source_config: { template_id: "nope" } }));
    expect(tpl.status).toBe(404);
    for (const id of [otherIntegrationId, "00000000-0000-4000-8000-00000000abcd"]) {
      const res = await post(body("codehost", { source_config: { integration_id: id } }));
      expect(res.status).toBe(404);
      expect(res.body.detail).toContain(id);
    }
  });

  it.each(["Upper", "-lead", "trail-", "under_score", "", "a".repeat(64), "dot.ted"])(
    "refuses the name %j with 422 at body.name",
    async (name) => {
      const res = await post(body("internal_container", { name }));
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", "name"]);
    },
  );

  it("accepts a 63-character name and refuses a duplicate with 409", async () => {
    const name = `a${uniqueName().replace(/-/g, "").padEnd(61, "0")}z`.slice(0, 63);
    expect((await post(body("internal_container", { name }))).status).toBe(201);
    const dup = await post(body("internal_source", { name }));
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain(name);
    // another workspace may use the same name
    expect((await post(body("internal_container", { name }), other.keys.editor)).status).toBe(201);
  });

  it.each([
    ["a null body", null, ["body"]],
    [
      "no source_config",
      { name: "x", source: "internal_container", source_revision_config: {} },
      ["body", "source_config"],
    ],
    ["an unknown source", { ...valid("internal_container"), source: "ftp" }, ["body", "source"]],
    [
      "an unknown deployment_type",
      valid("internal_container", { source_config: { deployment_type: "qa" } }),
      ["body", "source_config", "deployment_type"],
    ],
    [
      "a text cpu",
      valid("internal_container", { source_config: { resource_spec: { cpu: "1" } } }),
      ["body", "source_config", "resource_spec", "cpu"],
    ],
    [
      "a tag value id that is no uuid",
      valid("internal_container", { tag_value_ids: ["x"] }),
      ["body", "tag_value_ids", 0],
    ],
    [
      "a repo_url over 2048 bytes",
      body("codehost", { source_config: { repo_url: `https://h.example/${"é".repeat(1020)}` } }),
      ["body", "source_config", "repo_url"],
    ],
    [
      "a NUL character in a config string",
      valid("internal_container", { source_revision_config: { image_uri: "a\u0000b" } }),
      ["body", "source_revision_config", "image_uri"],
    ],
    [
      "a NUL character in a secret value (it becomes an environment variable, which cannot hold one)",
      valid("internal_container", { secrets: [{ name: "BINARY", value: "nul\u0000inside" }] }),
      ["body", "secrets", 0, "value"],
    ],
    [
      "a NUL character in a free-form key",
      valid("internal_container", {
        source_config: { resource_spec: { labels: { "a\u0000": "b" } } },
      }),
      ["body", "source_config", "resource_spec", "labels", "a\u0000"],
    ],
  ])("refuses %s with 422", async (_, payload, loc) => {
    const res = await post(payload);
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
  });

  it("refuses a body that is not JSON with 415", async () => {
    const res = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });

  it("returns secrets only as placeholders and stores them encrypted", async () => {
    const plaintext = `sk-live-${uniqueName()}`;
    const big = "x".repeat(64 * 1024);
    const res = await post(
      body("internal_source", {
        secrets: [
          { name: "OPENAI_API_KEY", value: plaintext },
          { name: "_big", value: big },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.secrets).toHaveLength(2);
    expect(res.body.secrets).toEqual(
      expect.arrayContaining(
        ["OPENAI_API_KEY", "_big"].map((name) => ({ name, value: "********" })),
      ),
    );
    expect(res.text).not.toContain(plaintext);
    const rows = await testDb().secret.findMany({ where: { deploymentId: res.body.id } });
    const stored = rows.find((r) => r.name === "OPENAI_API_KEY")!;
    expect(stored.valueEncrypted).not.toContain(plaintext);
    expect(decrypt(stored.valueEncrypted)).toBe(plaintext);
    const revision = await testDb().revision.findFirstOrThrow({
      where: { deploymentId: res.body.id },
    });
    expect(JSON.stringify(revision.secretsEncrypted)).not.toContain(plaintext);
    const audit = await testDb().auditEvent.findMany({ where: { targetId: res.body.id } });
    expect(JSON.stringify(audit)).not.toContain(plaintext);
  });

  it.each([
    ["a bad name", [{ name: "1ABC", value: "v" }], ["body", "secrets", 0, "name"]],
    ["a dash", [{ name: "A-B", value: "v" }], ["body", "secrets", 0, "name"]],
    [
      "a duplicate",
      [
        { name: "A", value: "1" },
        { name: "A", value: "2" },
      ],
      ["body", "secrets"],
    ],
    ["a value over 64 KiB", [{ name: "A", value: "x".repeat(65537) }], ["body", "secrets", 0]],
  ])("refuses secrets with %s (422)", async (_, secrets, loc) => {
    const res = await post(body("internal_container", { secrets }));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
    expect(res.text).not.toContain("x".repeat(100));
  });

  it("checks tag values: unknown 404, two of one key 400, other workspace 404", async () => {
    const tagKey = (t: Tenant, key: string) =>
      testDb().tagKey.create({ data: { workspaceId: t.workspaceId, key } });
    const team = await tagKey(tenant, "team");
    const tagValue = (value: string) =>
      testDb().tagValue.create({ data: { tagKeyId: team.id, value } });
    const a = await tagValue("a");
    const b = await tagValue("b");
    const foreign = await testDb().tagValue.create({
      data: { tagKeyId: (await tagKey(other, "team")).id, value: "a" },
    });
    const withTags = (ids: string[]) => body("internal_container", { tag_value_ids: ids });
    expect((await post(withTags(["00000000-0000-4000-8000-0000000000aa"]))).status).toBe(404);
    expect((await post(withTags([a.id, b.id]))).status).toBe(400);
    expect((await post(withTags([foreign.id]))).status).toBe(404);
    const ok = await post(withTags([a.id]));
    expect(ok.status).toBe(201);
    expect(ok.body.tag_value_ids).toEqual([a.id]);
  });

  it("answers 401 without a key, 403 for viewers; org keys work with X-Tenant-Id", async () => {
    expect((await api("/v2/deployments", { method: "POST", body: body("codehost") })).status).toBe(
      401,
    );
    expect((await post(body("internal_container"), tenant.keys.viewer)).status).toBe(403);
    const res = await api("/v2/deployments", {
      key: tenant.keys.organization,
      method: "POST",
      body: body("internal_container"),
      headers: { "x-tenant-id": tenant.workspaceId },
    });
    expect(res.status).toBe(201);
    expect(res.body.tenant_id).toBe(tenant.workspaceId);
  });

  it("records one audit event per create", async () => {
    const res = await post(body("internal_template"));
    const events = await testDb().auditEvent.findMany({ where: { targetId: res.body.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "deployment.create",
      workspaceId: tenant.workspaceId,
    });
  });
});
