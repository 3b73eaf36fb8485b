import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createDeployment,
  createSourceDeployment,
  createTagValue,
  insertDeployment,
  insertIntegration,
  patchDeployment,
  patchOk,
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

describe("PATCH /v2/deployments/{id}: which changes cut a revision", () => {
  it("a source_revision_config change cuts revision 2", async () => {
    const created = await createDeployment(editor);
    const res = await patchOk(editor, created.id, {
      source_revision_config: { image_uri: "registry.example/app:2" },
    });
    expect(res.body.latest_revision_id).not.toBe(created.latest_revision_id);
    // The new revision is queued, not live (revision 1 may have deployed meanwhile).
    expect(res.body.active_revision_id).not.toBe(res.body.latest_revision_id);
    expect(res.body.source_revision_config.image_uri).toBe("registry.example/app:2");
    expect(res.headers.get("etag")).toBeTruthy();

    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2]);
    expect(revisions[1]!).toMatchObject({ id: res.body.latest_revision_id });
    expect(revisions[1]!.status).not.toMatch(/FAILED|SKIPPED|INTERRUPTED/);
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
    for (const step of steps) await patchOk(editor, created.id, step);
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
    const a = await patchOk(editor, created.id, {
      source_config: { custom_url: "https://agent.example" },
    });
    const b = await patchOk(editor, created.id, { tag_value_ids: [tag] });
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
    const pushed = await patchOk(editor, codehost, { source_config: { build_on_push: true } });
    expect(pushed.body.source_config.build_on_push).toBe(true);

    const external = await insertDeployment(tenant, "external_container", {
      sourceRevisionConfig: { image_uri: "registry.example/ext:1" },
    });
    const listened = await patchOk(editor, external, {
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
    // Once the worker is done with revision 1, nothing else moves the deployment under the test.
    await waitForRevision(created.latest_revision_id);
    const read = await api(`/v2/deployments/${created.id}`, { key: editor });
    const etag = read.headers.get("etag")!;

    // The GET response sent back without its source_revision_config (which always cuts a
    // revision, section 5.4), with If-Match, and an empty patch.
    const settings = { ...read.body };
    delete settings.source_revision_config;
    for (const body of [settings, {}]) {
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

    // Sent back with it, the same configuration is a request for a new revision.
    const again = await patchDeployment(editor, created.id, read.body, { "if-match": etag });
    expect(again.status, again.text).toBe(200);
    expect(again.body.latest_revision_id).not.toBe(created.latest_revision_id);
    expect((await revisionsOf(created.id)).map((r) => r.number)).toEqual([1, 2]);
  });

  it("records what changed in the audit log, never secret values", async () => {
    const created = await createDeployment(editor);
    // Deploying revision 1 records the deployment's URL in custom_url when it has none: once
    // the worker is done with it, the patch below changes that recorded URL.
    await waitForRevision(created.latest_revision_id);
    const before = await api(`/v2/deployments/${created.id}`, { key: editor });
    await patchOk(editor, created.id, {
      secrets: [{ name: "PASSWORD", value: "audit-plaintext-123" }],
      source_config: { custom_url: "https://audited.example" },
    });
    const [event] = await testDb().auditEvent.findMany({
      where: { targetId: created.id, action: "deployment.update" },
    });
    expect(event?.data).toEqual({
      name: created.name,
      fields: ["secrets", "source_config.custom_url"],
      changes: {
        "source_config.custom_url": {
          from: before.body.source_config.custom_url,
          to: "https://audited.example",
        },
      },
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

    const roundTrip = await patchOk(editor, created.id, { secrets: created.secrets });
    expect(roundTrip.body.latest_revision_id).toBe(created.latest_revision_id);

    const changed = await patchOk(editor, created.id, {
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

    const omitted = await patchOk(editor, created.id, { secrets: null });
    expect(omitted.body.secrets).toHaveLength(2);

    const cleared = await patchOk(editor, created.id, { secrets: [] });
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
