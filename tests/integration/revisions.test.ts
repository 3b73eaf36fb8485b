import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { decrypt } from "../../src/server/crypto";
import { DRY_RUN_MESSAGE } from "../../src/server/jobs/drivers/recording";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import {
  createDeployment,
  createSourceDeployment,
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

/** A deployment with revisions 1..count (image tags :1..:count). */
async function withRevisions(count: number) {
  const created = await createDeployment(editor);
  for (let n = 2; n <= count; n++) {
    const res = await patchDeployment(editor, created.id, {
      source_revision_config: { image_uri: `registry.example/app:${n}` },
    });
    expect(res.status, res.text).toBe(200);
  }
  return created.id as string;
}

describe("GET /v2/deployments/{id}/revisions", () => {
  it("lists newest first with the contract's fields, pages and filters by status", async () => {
    const id = await withRevisions(4);
    const all = await api(`/v2/deployments/${id}/revisions`, { key: tenant.keys.viewer });
    expect(all.status).toBe(200);
    expect(all.body.offset).toBe(4);
    expect(all.body.resources.map((r: { number: number }) => r.number)).toEqual([4, 3, 2, 1]);
    const newest = all.body.resources[0];
    expect(Object.keys(newest).sort()).toEqual(
      [
        "created_at",
        "deployment_id",
        "id",
        "image_digest",
        "image_ref",
        "number",
        "promoted_from",
        "remote_reconciled",
        "runtime",
        "source",
        "source_revision_config",
        "status",
        "status_message",
        "updated_at",
      ].sort(),
    );
    expect(newest).toMatchObject({
      deployment_id: id,
      // The revision engine runs beside the tests: the newest is on its way, never failed.
      status: expect.stringMatching(/^(QUEUED|AWAITING_BUILD|AWAITING_DEPLOY|DEPLOYING|DEPLOYED)$/),
      // On its way it says nothing; once deployed (no cluster here), that it was a dry run.
      status_message: newest.status === "DEPLOYED" ? DRY_RUN_MESSAGE : null,
      source: "internal_container",
      source_revision_config: {
        image_uri: "registry.example/app:4",
        repo_ref: null,
        graph_config_path: null,
        source_tarball_path: null,
        repo_commit_sha: null,
      },
    });
    expect(newest.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const first = await api(`/v2/deployments/${id}/revisions?limit=3`, { key: editor });
    expect(first.body.resources.map((r: { number: number }) => r.number)).toEqual([4, 3, 2]);
    const next = await api(`/v2/deployments/${id}/revisions?limit=3&offset=${first.body.offset}`, {
      key: editor,
    });
    expect(next.body).toMatchObject({ offset: 4, resources: [{ number: 1 }] });

    await testDb().revision.updateMany({
      where: { deploymentId: id, number: { in: [1, 2] } },
      data: { status: "SKIPPED" },
    });
    await testDb().revision.updateMany({
      where: { deploymentId: id, number: 3 },
      data: { status: "BUILD_FAILED", statusMessage: "npm ci failed" },
    });
    const filtered = await api(`/v2/deployments/${id}/revisions?status=SKIPPED,BUILD_FAILED`, {
      key: editor,
    });
    expect(
      filtered.body.resources.map((r: { number: number; status: string }) => [r.number, r.status]),
    ).toEqual([
      [3, "BUILD_FAILED"],
      [2, "SKIPPED"],
      [1, "SKIPPED"],
    ]);
    expect(filtered.body.resources[0].status_message).toBe("npm ci failed");

    const bad = await api(`/v2/deployments/${id}/revisions?status=DONE`, { key: editor });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc[0]).toBe("query");
    expect((await api(`/v2/deployments/${id}/revisions?limit=0`, { key: editor })).status).toBe(
      422,
    );
  });

  it("answers 401, 404 across workspaces and 422 for a bad path id", async () => {
    const id = await withRevisions(1);
    expect((await api(`/v2/deployments/${id}/revisions`)).status).toBe(401);
    const foreign = await api(`/v2/deployments/${id}/revisions`, { key: other.keys.admin });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`Deployment ID ${id} not found.`);
    const badPath = await api(`/v2/deployments/nope/revisions`, { key: editor });
    expect(badPath.status).toBe(422);
    expect(badPath.body.detail[0].loc).toEqual(["path", "deployment_id"]);
  });
});

describe("GET /v2/deployments/{id}/revisions/{revision_id}", () => {
  it("returns one revision, and 404 for another deployment's or workspace's", async () => {
    const id = await withRevisions(2);
    const r1 = (await revisionsOf(id))[0]!;
    const one = await api(`/v2/deployments/${id}/revisions/${r1.id}`, { key: tenant.keys.viewer });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: r1.id, number: 1, deployment_id: id });

    const otherDeployment = await withRevisions(1);
    const crossed = await api(`/v2/deployments/${otherDeployment}/revisions/${r1.id}`, {
      key: editor,
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body.detail).toBe(`Revision ${r1.id} not found.`);
    const unknown = crypto.randomUUID();
    const missing = await api(`/v2/deployments/${id}/revisions/${unknown}`, { key: editor });
    expect(missing.body.detail).toBe(`Revision ${unknown} not found.`);
    expect(
      (await api(`/v2/deployments/${id}/revisions/${r1.id}`, { key: other.keys.admin })).status,
    ).toBe(404);
    const badPath = await api(`/v2/deployments/${id}/revisions/x`, { key: editor });
    expect(badPath.status).toBe(422);
    expect(badPath.body.detail[0].loc).toEqual(["path", "revision_id"]);
  });
});

describe("POST /v2/deployments/{id}/revisions/{revision_id}/redeploy", () => {
  it("rolls back to revision 1's configuration and secrets as revision 3", async () => {
    const created = await createSourceDeployment(editor, {
      source_config: { install_command: "npm ci", resource_spec: { cpu: 1 } },
      secrets: [{ name: "TOKEN", value: "first-token" }],
    });
    const changed = await patchDeployment(editor, created.id, {
      source_revision_config: { source_tarball_path: "uploads/app-2.tgz" },
      source_config: {
        install_command: "pnpm install",
        resource_spec: { cpu: 2 },
        custom_url: "https://kept.example",
      },
      secrets: [
        { name: "TOKEN", value: "second-token" },
        { name: "EXTRA", value: "extra" },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    const r1 = (await revisionsOf(created.id))[0]!;
    await testDb().revision.update({
      where: { id: r1.id },
      data: {
        status: "DEPLOYED",
        sourceRevisionConfig: { ...(r1.sourceRevisionConfig as object), repo_commit_sha: "abc123" },
      },
    });

    const res = await api(`/v2/deployments/${created.id}/revisions/${r1.id}/redeploy`, {
      key: editor,
      method: "POST",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("etag")).not.toBe(changed.headers.get("etag"));
    expect(res.body).toMatchObject({
      source_revision_config: {
        source_tarball_path: "uploads/app-1.tgz",
        graph_config_path: "graph.json",
        repo_commit_sha: "abc123",
      },
      source_config: {
        install_command: "npm ci",
        resource_spec: { cpu: 1, cpu_limit: 2 },
        custom_url: "https://kept.example",
      },
      secrets: [{ name: "TOKEN", value: "********" }],
    });
    expect(res.text).not.toMatch(/first-token|second-token/);

    const revisions = await revisionsOf(created.id);
    expect(revisions.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(res.body.latest_revision_id).toBe(revisions[2]!.id);
    expect(revisions[2]!).toMatchObject({ source: "internal_source" });
    expect(revisions[2]!.status).not.toMatch(/FAILED|SKIPPED|INTERRUPTED/);
    const stored = await testDb().secret.findMany({ where: { deploymentId: created.id } });
    expect(stored.map((s) => [s.name, decrypt(s.valueEncrypted)])).toEqual([
      ["TOKEN", "first-token"],
    ]);
    const [audit] = await testDb().auditEvent.findMany({
      where: { targetId: created.id, action: "deployment.redeploy" },
    });
    expect(audit?.data).toEqual({ from_revision: 1, revision: 3 });
  });

  it("answers 401, viewer 403, 404 across workspaces and for another deployment's revision", async () => {
    const id = await withRevisions(1);
    const r1 = (await revisionsOf(id))[0]!;
    const path = `/v2/deployments/${id}/revisions/${r1.id}/redeploy`;
    expect((await api(path, { method: "POST" })).status).toBe(401);
    expect((await api(path, { key: tenant.keys.viewer, method: "POST" })).status).toBe(403);
    expect((await api(path, { key: other.keys.admin, method: "POST" })).status).toBe(404);
    const otherDeployment = await withRevisions(1);
    const crossed = await api(`/v2/deployments/${otherDeployment}/revisions/${r1.id}/redeploy`, {
      key: editor,
      method: "POST",
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body.detail).toBe(`Revision ${r1.id} not found.`);
    expect((await api(path, { key: editor })).status).toBe(405);
    expect((await revisionsOf(id)).length).toBe(1);
  });
});

describe("tRPC revisions", () => {
  it("lists, gets and redeploys through the same service, roles and tenancy", async () => {
    const id = await withRevisions(2);
    const caller = createCaller({ db: testDb(), requestId: "r1", actor: tenant.actors.editor });
    const page = await caller.revisions.list({ deploymentId: id, limit: "1" });
    expect(page.resources.map((r) => r.number)).toEqual([2]);
    expect(page.offset).toBe(1);
    const r1 = (await revisionsOf(id))[0]!;
    expect(await caller.revisions.get({ deploymentId: id, revisionId: r1.id })).toMatchObject({
      number: 1,
    });
    const redeployed = await caller.revisions.redeploy({ deploymentId: id, revisionId: r1.id });
    expect(redeployed.deployment.source_revision_config.image_uri).toBe("registry.example/app:1");
    expect(redeployed.etag).toMatch(/^W\//);

    const viewer = createCaller({ db: testDb(), requestId: "r2", actor: tenant.actors.viewer });
    expect((await viewer.revisions.list({ deploymentId: id })).resources).toHaveLength(3);
    await expect(
      viewer.revisions.redeploy({ deploymentId: id, revisionId: r1.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stranger = createCaller({ db: testDb(), requestId: "r3", actor: other.actors.admin });
    await expect(stranger.revisions.list({ deploymentId: id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.revisions.get({ deploymentId: id, revisionId: crypto.randomUUID() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
