import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createDeployment,
  createSourceDeployment,
  createTagValue,
  insertDeployment,
  insertIntegration,
  patchDeployment,
  revisionsOf,
} from "../helpers/revision-fixtures";

let tenant: Tenant;
let other: Tenant;
let editor: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  editor = tenant.keys.editor;
});

/** Patches and returns the response, failing loudly on anything but 200. */
async function patchOk(id: string, body: unknown) {
  const res = await patchDeployment(editor, id, body);
  expect(res.status, res.text).toBe(200);
  return res;
}

describe("PATCH /v2/deployments/{id}: which changes cut a revision", () => {
  it("a source_revision_config change cuts revision 2", async () => {
    const created = await createDeployment(editor);
    const res = await patchOk(created.id, {
      source_revision_config: { image_uri: "registry.example/app:2" },
    });
    expect(res.body.latest_revision_id).not.toBe(created.latest_revision_id);
    expect(res.body.active_revision_id).toBeNull();
    expect(res.body.source_revision_config.image_uri).toBe("registry.example/app:2");
    expect(res.headers.get("etag")).toBeTruthy();

    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2]);
    expect(revisions[1]!).toMatchObject({ id: res.body.latest_revision_id, status: "QUEUED" });
    expect(revisions[1]!.sourceRevisionConfig).toMatchObject({
      image_uri: "registry.example/app:2",
    });
    expect(revisions[0]!.sourceRevisionConfig).toMatchObject({
      image_uri: "registry.example/app:1",
    });
  });

  it("resource_spec, install_command, build_command and secrets changes each cut one", async () => {
    const created = await createSourceDeployment(editor, {
      source_config: { install_command: "npm ci" },
    });
    const steps = [
      { source_config: { resource_spec: { cpu: 1, memory_mb: 512 } } },
      { source_config: { install_command: "pnpm install" } },
      { source_config: { build_command: "npm run build" } },
      { secrets: [{ name: "API_TOKEN", value: "s3cret-value" }] },
      { source_revision_config: { graph_config_path: "agents/graph.json" } },
    ];
    for (const step of steps) await patchOk(created.id, step);
    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(revisions[5]!.sourceConfig).toMatchObject({
      resource_spec: { cpu: 1, cpu_limit: 2, memory_mb: 512, memory_limit_mb: 1024 },
      install_command: "pnpm install",
      build_command: "npm run build",
    });

    const final = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(final.body.latest_revision_id).toBe(revisions[5]!.id);
    expect(final.body.source_config.resource_spec).toMatchObject({ cpu: 1, memory_mb: 512 });
  });

  it("custom_url, tags, build_on_push, listener_config and secret_references do not", async () => {
    const created = await createDeployment(editor);
    const tag = await createTagValue(editor);
    const a = await patchOk(created.id, { source_config: { custom_url: "https://agent.example" } });
    const b = await patchOk(created.id, { tag_value_ids: [tag] });
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    expect(b.body).toMatchObject({
      source_config: { custom_url: "https://agent.example" },
      tag_value_ids: [tag],
      latest_revision_id: created.latest_revision_id,
    });

    const integrationId = await insertIntegration(tenant);
    const codehost = await insertDeployment(tenant, "codehost", {
      sourceConfig: { integration_id: integrationId, repo_url: "https://codehost.example/o/r" },
      sourceRevisionConfig: { repo_ref: "main", graph_config_path: "graph.json" },
    });
    const pushed = await patchOk(codehost, { source_config: { build_on_push: true } });
    expect(pushed.body.source_config.build_on_push).toBe(true);

    const external = await insertDeployment(tenant, "external_container", {
      sourceRevisionConfig: { image_uri: "registry.example/ext:1" },
    });
    const listened = await patchOk(external, {
      source_config: { listener_config: { k8s_namespace: "agents" } },
      secret_references: [{ name: "DB_URL", secret_name: "db", secret_key: "url" }],
    });
    expect(listened.body.source_config.listener_config).toEqual({ k8s_namespace: "agents" });
    expect(listened.body.secret_references).toEqual([
      { name: "DB_URL", secret_name: "db", secret_key: "url" },
    ]);

    for (const id of [created.id, codehost, external]) {
      expect((await revisionsOf(id)).map((r) => r.number)).toEqual([1]);
    }
  });

  it("a patch that changes nothing creates nothing and keeps the ETag", async () => {
    const created = await createDeployment(editor, {
      secrets: [{ name: "KEY", value: "v1" }],
      source_config: { custom_url: "https://same.example" },
    });
    const read = await api(`/v2/deployments/${created.id}`, { key: editor });
    const etag = read.headers.get("etag")!;

    // The GET response sent back as it is, with If-Match, and an empty patch.
    for (const body of [read.body, {}]) {
      const res = await patchDeployment(editor, created.id, body, { "if-match": etag });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.body.updated_at).toBe(read.body.updated_at);
    }
    expect((await revisionsOf(created.id)).length).toBe(1);
    const audits = await testDb().auditEvent.count({
      where: { targetId: created.id, action: "deployment.update" },
    });
    expect(audits).toBe(0);
  });

  it("records what changed in the audit log, never secret values", async () => {
    const created = await createDeployment(editor);
    await patchOk(created.id, {
      secrets: [{ name: "PASSWORD", value: "audit-plaintext-123" }],
      source_config: { custom_url: "https://audited.example" },
    });
    const [event] = await testDb().auditEvent.findMany({
      where: { targetId: created.id, action: "deployment.update" },
    });
    expect(event?.data).toEqual({
      fields: ["secrets", "source_config.custom_url"],
      revision: 2,
    });
    expect(JSON.stringify(event)).not.toContain("audit-plaintext-123");
  });
});

describe("PATCH /v2/deployments/{id}: secrets", () => {
  it("keeps placeholder values, changes real ones and removes all with []", async () => {
    const created = await createDeployment(editor, {
      secrets: [
        { name: "A", value: "alpha-plain" },
        { name: "B", value: "bravo-plain" },
      ],
    });
    expect(created.secrets).toEqual([
      { name: "A", value: "********" },
      { name: "B", value: "********" },
    ]);

    const roundTrip = await patchOk(created.id, { secrets: created.secrets });
    expect(roundTrip.body.latest_revision_id).toBe(created.latest_revision_id);

    const changed = await patchOk(created.id, {
      secrets: [
        { name: "A", value: "********" },
        { name: "B", value: "bravo-new" },
      ],
    });
    expect(changed.body.latest_revision_id).not.toBe(created.latest_revision_id);
    const stored = await testDb().secret.findMany({
      where: { deploymentId: created.id },
      orderBy: { name: "asc" },
    });
    expect(stored.map((s) => [s.name, decrypt(s.valueEncrypted)])).toEqual([
      ["A", "alpha-plain"],
      ["B", "bravo-new"],
    ]);

    const omitted = await patchOk(created.id, { secrets: null });
    expect(omitted.body.secrets).toHaveLength(2);

    const cleared = await patchOk(created.id, { secrets: [] });
    expect(cleared.body.secrets).toEqual([]);
    expect(await testDb().secret.count({ where: { deploymentId: created.id } })).toBe(0);
    expect((await revisionsOf(created.id)).length).toBe(3);

    for (const res of [roundTrip, changed, omitted, cleared]) {
      expect(res.text).not.toMatch(/alpha-plain|bravo-plain|bravo-new/);
    }
    const listed = await api(`/v2/deployments/${created.id}/revisions`, { key: editor });
    expect(listed.text).not.toMatch(/alpha-plain|bravo-plain|bravo-new|v1\./);
  });

  it("refuses the placeholder for a secret that has no stored value", async () => {
    const created = await createDeployment(editor);
    const res = await patchDeployment(editor, created.id, {
      secrets: [{ name: "NEW", value: "********" }],
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("NEW");
  });
});

describe("PATCH /v2/deployments/{id}: rules", () => {
  it("refuses a different value for each immutable field and accepts the same one", async () => {
    const integrationId = await insertIntegration(tenant);
    const repo = "https://codehost.example/o/r";
    const codehost = await insertDeployment(tenant, "codehost", {
      sourceConfig: { integration_id: integrationId, repo_url: repo, deployment_type: "prod" },
      sourceRevisionConfig: { repo_ref: "main", graph_config_path: "graph.json" },
    });
    const listenerId = crypto.randomUUID();
    const external = await insertDeployment(tenant, "external_container", {
      sourceConfig: { listener_id: listenerId },
      sourceRevisionConfig: { image_uri: "registry.example/ext:1" },
    });
    const { name } = (await api(`/v2/deployments/${codehost}`, { key: editor })).body;

    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [codehost, { name: "another-name" }, { name }],
      [codehost, { source: "internal_source" }, { source: "codehost" }],
      [
        codehost,
        { source_config: { integration_id: crypto.randomUUID() } },
        { source_config: { integration_id: integrationId } },
      ],
      [
        codehost,
        { source_config: { repo_url: "https://codehost.example/o/other" } },
        { source_config: { repo_url: repo } },
      ],
      [
        codehost,
        { source_config: { deployment_type: "dev" } },
        { source_config: { deployment_type: "prod" } },
      ],
      [
        external,
        { source_config: { listener_id: crypto.randomUUID() } },
        { source_config: { listener_id: listenerId } },
      ],
    ];
    for (const [id, different, same] of cases) {
      const refused = await patchDeployment(editor, id, different);
      expect(refused.status, JSON.stringify(different)).toBe(400);
      expect(refused.body.detail).toMatch(/immutable/);
      const accepted = await patchDeployment(editor, id, same);
      expect(accepted.status, JSON.stringify(same)).toBe(200);
    }
    expect((await revisionsOf(codehost)).length).toBe(1);
  });

  it("refuses secret_references and fields the source does not allow", async () => {
    const created = await createDeployment(editor);
    const refs = await patchDeployment(editor, created.id, {
      secret_references: [{ name: "X", secret_name: "x", secret_key: "k" }],
    });
    expect(refs.status).toBe(400);
    expect(refs.body.detail).toMatch(/external_container/);
    const install = await patchDeployment(editor, created.id, {
      source_config: { install_command: "npm ci" },
    });
    expect(install.status).toBe(400);
    expect(install.body.detail).toContain("source_config.install_command");
  });

  it("revision_source overrides the source for one revision only", async () => {
    const created = await createSourceDeployment(editor);
    const missing = await patchDeployment(editor, created.id, {
      revision_source: "internal_container",
    });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain("image_uri");
    const codehost = await patchDeployment(editor, created.id, { revision_source: "codehost" });
    expect(codehost.status).toBe(400);

    const pushed = await patchOk(created.id, {
      revision_source: "internal_container",
      source_revision_config: { image_uri: "registry.example/pushed:7" },
    });
    expect(pushed.body.source).toBe("internal_source");
    expect(pushed.body.source_revision_config).toMatchObject({
      image_uri: "registry.example/pushed:7",
      source_tarball_path: null,
    });
    // A patch that leaves the revision alone keeps the override; one that touches it does not.
    await patchOk(created.id, { source_config: { custom_url: "https://x.example" } });
    const back = await patchOk(created.id, { secrets: [{ name: "S", value: "1" }] });
    expect(back.body.source_revision_config).toMatchObject({
      source_tarball_path: "uploads/app-1.tgz",
      image_uri: null,
    });
    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => [r.number, r.source])).toEqual([
      [1, "internal_source"],
      [2, "internal_container"],
      [3, "internal_source"],
    ]);
  });

  it("re-checks scale and build_on_push rules on the merged configuration", async () => {
    const prod = await createDeployment(editor, { source_config: { deployment_type: "prod" } });
    const scale = await patchDeployment(editor, prod.id, {
      source_config: { resource_spec: { min_scale: 0 } },
    });
    expect(scale.status).toBe(422);
    expect(scale.body.detail[0].loc).toEqual([
      "body",
      "source_config",
      "resource_spec",
      "min_scale",
    ]);

    const integrationId = await insertIntegration(tenant);
    const codehost = await insertDeployment(tenant, "codehost", {
      sourceConfig: { integration_id: integrationId, repo_url: "https://codehost.example/o/r" },
      sourceRevisionConfig: { repo_ref: "refs/tags/v1", graph_config_path: "graph.json" },
    });
    const push = await patchDeployment(editor, codehost, {
      source_config: { build_on_push: true },
    });
    expect(push.status).toBe(400);
    expect(push.body.detail).toMatch(/build_on_push/);
  });

  it("answers 412 for a stale If-Match and 200 with a new ETag for the current one", async () => {
    const created = await createDeployment(editor);
    const read = await api(`/v2/deployments/${created.id}`, { key: editor });
    const etag = read.headers.get("etag")!;
    const first = await patchDeployment(
      editor,
      created.id,
      { source_config: { custom_url: "https://one.example" } },
      { "if-match": etag },
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).not.toBe(etag);

    const stale = await patchDeployment(
      editor,
      created.id,
      { source_config: { custom_url: "https://two.example" } },
      { "if-match": etag },
    );
    expect(stale.status).toBe(412);
    expect(typeof stale.body.detail).toBe("string");
    const after = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(after.body.source_config.custom_url).toBe("https://one.example");
  });

  it("answers 422 for malformed bodies and path ids", async () => {
    const created = await createDeployment(editor);
    const malformed = await api(`/v2/deployments/${created.id}`, {
      key: editor,
      method: "PATCH",
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].type).toBe("json_invalid");
    const badSecret = await patchDeployment(editor, created.id, {
      secrets: [{ name: "1bad", value: "x" }],
    });
    expect(badSecret.status).toBe(422);
    expect(badSecret.body.detail[0].loc).toEqual(["body", "secrets", 0, "name"]);
    const badSource = await patchDeployment(editor, created.id, { revision_source: "ftp" });
    expect(badSource.status).toBe(422);
    const badPath = await patchDeployment(editor, "not-a-uuid", {});
    expect(badPath.status).toBe(422);
    expect(badPath.body.detail[0].loc).toEqual(["path", "deployment_id"]);
  });

  it("answers 401, viewer 403 and cross-workspace or unknown 404", async () => {
    const created = await createDeployment(editor);
    const body = { source_config: { custom_url: "https://nope.example" } };
    expect((await api(`/v2/deployments/${created.id}`, { method: "PATCH", body })).status).toBe(
      401,
    );
    expect((await patchDeployment(tenant.keys.viewer, created.id, body)).status).toBe(403);
    const foreign = await patchDeployment(other.keys.admin, created.id, body);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`Deployment ID ${created.id} not found.`);
    expect((await patchDeployment(editor, crypto.randomUUID(), body)).status).toBe(404);
    const after = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(after.body.source_config.custom_url).toBeNull();
  });
});

describe("tRPC deployments.patch", () => {
  it("uses the same service, roles, tenancy and ETags", async () => {
    const created = await createDeployment(editor);
    const caller = createCaller({ db: testDb(), requestId: "p1", actor: tenant.actors.editor });
    const { etag } = await caller.deployments.get({ id: created.id });
    const patched = await caller.deployments.patch({
      id: created.id,
      ifMatch: etag,
      patch: { source_revision_config: { image_uri: "registry.example/app:trpc" } },
    });
    expect(patched.deployment.source_revision_config.image_uri).toBe("registry.example/app:trpc");
    expect(patched.etag).not.toBe(etag);
    await expect(
      caller.deployments.patch({ id: created.id, ifMatch: etag, patch: {} }),
    ).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });

    const viewer = createCaller({ db: testDb(), requestId: "p2", actor: tenant.actors.viewer });
    await expect(viewer.deployments.patch({ id: created.id, patch: {} })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const stranger = createCaller({ db: testDb(), requestId: "p3", actor: other.actors.admin });
    await expect(stranger.deployments.patch({ id: created.id, patch: {} })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.deployments.patch({ id: created.id, patch: { name: "renamed" } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
