import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { createIntegrationRow, uniqueName, validDeployment as valid } from "../helpers/deployments";
import { api } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";

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

const post = (body: unknown, key = tenant.keys.editor, baseUrl?: string) =>
  api("/v2/deployments", { key, method: "POST", body, baseUrl });
const body = (source: Parameters<typeof valid>[0], overrides = {}) =>
  valid(source, overrides, { integrationId });

const deploymentKeys = [
  "active_revision_id",
  "created_at",
  "id",
  "image_version",
  "latest_revision_id",
  "name",
  "secret_references",
  "secrets",
  "source",
  "source_config",
  "source_revision_config",
  "status",
  "tag_value_ids",
  "tenant_id",
  "updated_at",
];

// Contract 5.2's table: every source-specific field, a sample value, and who may send it.
const sampleValues: Record<string, unknown> = {
  "source_config.integration_id": "00000000-0000-4000-8000-000000000001",
  "source_config.repo_url": "https://github.com/acme/agent",
  "source_config.build_on_push": false,
  "source_config.listener_id": "00000000-0000-4000-8000-000000000002",
  "source_config.listener_config": { k8s_namespace: "agents" },
  "source_config.install_command": "pip install .",
  "source_config.build_command": "make",
  "source_config.template_id": "react-agent",
  "source_revision_config.repo_ref": "main",
  "source_revision_config.graph_config_path": "langgraph.json",
  "source_revision_config.image_uri": "docker.io/acme/agent:1",
  "source_revision_config.source_tarball_path": "uploads/a.tgz",
  secret_references: [{ name: "OPENAI", secret_name: "llm", secret_key: "openai" }],
};
const contract = {
  codehost: {
    required: ["integration_id", "repo_url", "repo_ref", "graph_config_path"],
    allowed: ["build_on_push", "install_command", "build_command"],
  },
  external_container: {
    required: ["image_uri"],
    allowed: ["secret_references", "listener_id", "listener_config"],
  },
  internal_container: { required: ["image_uri"], allowed: [] },
  internal_source: {
    required: ["source_tarball_path", "graph_config_path"],
    allowed: ["install_command", "build_command"],
  },
  internal_template: { required: ["template_id"], allowed: [] },
} as const;
type Source = keyof typeof contract;

const leaf = (field: string) => field.split(".").pop()!;
function withField(source: Source, field: string, value: unknown) {
  const [group, key] = field.includes(".") ? field.split(".") : [field, undefined];
  return key ? body(source, { [group]: { [key]: value } }) : body(source, { [group]: value });
}
const fullName = (field: string) =>
  Object.keys(sampleValues).find((f) => leaf(f) === field) ?? field;
const missingCases = (sources: Source[]) =>
  sources.flatMap((s) => contract[s].required.map((f) => [s, fullName(f)] as const));
const disallowedCases = (sources: Source[]) =>
  sources.flatMap((s) => {
    const ok = new Set<string>([...contract[s].required, ...contract[s].allowed]);
    return Object.keys(sampleValues)
      .filter((f) => !ok.has(leaf(f)))
      .map((f) => [s, f] as const);
  });
const managed: Source[] = [
  "codehost",
  "internal_container",
  "internal_source",
  "internal_template",
];

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
      secrets: [],
      secret_references: null,
      tag_value_ids: [],
    });
    expect(res.body.source_config).toMatchObject({ deployment_type: "dev", custom_url });
    const revisions = await testDb().revision.findMany({ where: { deploymentId: res.body.id } });
    expect(revisions).toEqual([
      expect.objectContaining({ id: res.body.latest_revision_id, number: 1, status: "QUEUED" }),
    ]);
  });

  it.each(missingCases(managed))("%s without %s -> 400 naming it", async (source, field) => {
    for (const value of [undefined, null]) {
      const res = await post(withField(source, field, value));
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toContain(field);
    }
  });

  it.each(disallowedCases(managed))("%s with %s -> 400 naming it", async (source, field) => {
    const res = await post(withField(source, field, sampleValues[field]));
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
    expect(res.body.secrets).toEqual([
      { name: "OPENAI_API_KEY", value: "********" },
      { name: "_big", value: "********" },
    ]);
    expect(res.text).not.toContain(plaintext);
    const rows = await testDb().secret.findMany({ where: { deploymentId: res.body.id } });
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.valueEncrypted).not.toContain(plaintext);
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

describe("POST /v2/deployments (self_hosted mode)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...inject("testEnv"), HANGAR_MODE: "self_hosted" });
  });
  afterAll(() => server?.stop());
  const postSelf = (b: unknown) => post(b, tenant.keys.editor, server.url);

  it("creates external_container with secret references and a listener", async () => {
    const listener = { listener_id: sampleValues["source_config.listener_id"] };
    const res = await postSelf(
      valid("external_container", {
        source_config: { ...listener, listener_config: { k8s_namespace: "agents" } },
        secret_references: sampleValues.secret_references,
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.secret_references).toEqual(sampleValues.secret_references);
    expect(res.body.source_config).toMatchObject({
      ...listener,
      listener_config: { k8s_namespace: "agents" },
    });
  });

  it.each(managed)("refuses %s, naming the mode", async (source) => {
    const res = await postSelf(body(source));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("self_hosted");
  });

  it.each(missingCases(["external_container"]))("%s without %s -> 400", async (s, field) => {
    const res = await postSelf(withField(s, field, undefined));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
  });

  it.each(disallowedCases(["external_container"]))("%s with %s -> 400", async (s, field) => {
    const res = await postSelf(withField(s, field, sampleValues[field]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
  });
});
