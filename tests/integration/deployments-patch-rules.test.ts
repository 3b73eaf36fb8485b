import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createDeployment,
  createSourceDeployment,
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

    const pushed = await patchOk(editor, created.id, {
      revision_source: "internal_container",
      source_revision_config: { image_uri: "registry.example/pushed:7" },
    });
    expect(pushed.body.source).toBe("internal_source");
    expect(pushed.body.source_revision_config).toMatchObject({
      image_uri: "registry.example/pushed:7",
      source_tarball_path: null,
    });
    // A patch that leaves the revision alone keeps the override; one that touches it does not.
    await patchOk(editor, created.id, { source_config: { custom_url: "https://x.example" } });
    const back = await patchOk(editor, created.id, { secrets: [{ name: "S", value: "1" }] });
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
    // None of the refused patches applied (a deploy may meanwhile have filled in its own URL).
    const after = await api(`/v2/deployments/${created.id}`, { key: editor });
    expect(after.body.source_config.custom_url).not.toBe("https://nope.example");
  });
});
