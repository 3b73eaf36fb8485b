import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { createDeployment, createSourceDeployment } from "../helpers/revision-fixtures";

// Promotion's refusals at both doors (contract 6). The shared test worker builds nothing (a dry
// run) and no registry runs here, so no revision has a digest: the promotion that pushes and
// pulls for real is in registry.test.ts. Where a promoted revision came from (promoted_from) is
// read here at both doors, from a revision given a digest in the database (as a push records it).

let tenant: Tenant;
let other: Tenant;
/** A dry-run build's revision (no image pushed) of an internal_source deployment. */
let built: { deploymentId: string; revisionId: string; number: number };
/** An image revision whose image is outside Hangar's registry (no digest). */
let external: { deploymentId: string; revisionId: string };
let target: string;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  const source = await createSourceDeployment(tenant.keys.editor);
  const revision = await waitForRevision(source.latest_revision_id);
  built = { deploymentId: source.id, revisionId: revision.id, number: revision.number };
  const image = await createDeployment(tenant.keys.editor);
  await waitForRevision(image.latest_revision_id);
  external = { deploymentId: image.id, revisionId: image.latest_revision_id };
  target = (await createDeployment(tenant.keys.editor)).id;
});

const promote = (
  from: { deploymentId: string; revisionId: string },
  body: unknown,
  key = tenant.keys.editor,
) =>
  api(`/v2/deployments/${from.deploymentId}/revisions/${from.revisionId}/promote`, {
    key,
    method: "POST",
    body,
  });

describe("POST /v2/deployments/{id}/revisions/{revision_id}/promote refuses", () => {
  it("a revision with no image to pin: 409 saying why, and cuts nothing", async () => {
    const dryRun = await promote(built, { target_deployment_id: target });
    expect(dryRun.status, dryRun.text).toBe(409);
    expect(dryRun.body).toEqual({
      code: "conflict",
      detail: expect.stringContaining(`Revision ${built.number} has no image to promote: `),
    });
    const row = await testDb().revision.findUniqueOrThrow({ where: { id: built.revisionId } });
    expect(dryRun.body.detail).toContain(
      row.imageRef ? "built in a dry run" : `it has no image (status ${row.status})`,
    );

    const outside = await promote(external, { target_deployment_id: target });
    expect(outside.status, outside.text).toBe(409);
    expect(outside.body.detail).toContain(
      "its image registry.example/app:1 is not in Hangar's registry, so it has no digest to pin",
    );
    expect(await testDb().revision.count({ where: { deploymentId: target } })).toBe(1);
  });

  it("the revision's own deployment (400), a viewer (403), bad bodies (422)", async () => {
    const same = await promote(built, { target_deployment_id: built.deploymentId });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ code: "bad_request" });
    expect(same.body.detail).toContain("redeploy");
    const viewer = await promote(built, { target_deployment_id: target }, tenant.keys.viewer);
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe("forbidden");
    const missing = await promote(built, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({
      loc: ["body", "target_deployment_id"],
      type: "missing",
    });
    const notUuid = await promote(built, { target_deployment_id: "prod" });
    expect(notUuid.status).toBe(422);
  });

  it("unknown or another workspace's deployments and revisions: 404", async () => {
    const foreign = await createDeployment(other.keys.editor);
    const foreignTarget = await promote(built, { target_deployment_id: foreign.id });
    expect(foreignTarget.status).toBe(404);
    expect(foreignTarget.body).toEqual({
      code: "not_found",
      detail: `Deployment ID ${foreign.id} not found.`,
    });
    const unknownTarget = await promote(built, { target_deployment_id: crypto.randomUUID() });
    expect(unknownTarget.status).toBe(404);
    // The source revision seen from another workspace: not found either.
    const stranger = await promote(built, { target_deployment_id: foreign.id }, other.keys.editor);
    expect(stranger.status).toBe(404);
    expect(stranger.body.detail).toBe(`Deployment ID ${built.deploymentId} not found.`);
    const unknownRevision = crypto.randomUUID();
    const noRevision = await promote(
      { deploymentId: built.deploymentId, revisionId: unknownRevision },
      { target_deployment_id: target },
    );
    expect(noRevision.status).toBe(404);
    expect(noRevision.body.detail).toBe(`Revision ${unknownRevision} not found.`);
    expect(
      await testDb().auditEvent.count({
        where: { action: "deployment.promote", workspaceId: tenant.workspaceId },
      }),
    ).toBe(0);
  });
});

describe("revisions.promote (tRPC)", () => {
  it("refuses as the REST door does", async () => {
    const as = (actor: Tenant["actors"]["editor"]) =>
      createCaller({ db: testDb(), requestId: "promote", actor });
    const editor = as(tenant.actors.editor);
    const call = (target_deployment_id: string, caller = editor, revisionId = built.revisionId) =>
      caller.revisions.promote({
        deploymentId: built.deploymentId,
        revisionId,
        target_deployment_id,
      });
    await expect(call(target)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("has no image to promote"),
    });
    await expect(call(built.deploymentId)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(call(target, as(tenant.actors.viewer))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const foreign = await createDeployment(other.keys.editor);
    await expect(call(foreign.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(call(target, as(other.actors.editor))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(call(target, editor, crypto.randomUUID())).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

/** A deployed image revision that ran an image pushed to Hangar's registry (its digest pinned). */
async function pushedRevision(name: string) {
  const source = await createDeployment(tenant.keys.editor, { name });
  const revision = await waitForRevision(source.latest_revision_id);
  const digest = `sha256:${"ab".repeat(32)}`;
  await testDb().revision.update({
    where: { id: revision.id },
    data: {
      imageRef: `registry.hangar.test:5000/${tenant.workspaceId}/${name}@${digest}`,
      imageDigest: digest,
    },
  });
  return {
    deploymentId: source.id as string,
    revisionId: revision.id,
    number: revision.number,
    digest,
  };
}

describe("a promoted revision says where it came from", () => {
  it("promoted_from over REST (read and list) and tRPC; null on other revisions", async () => {
    const name = `promo-src-${Date.now().toString(36)}`;
    const from = await pushedRevision(name);
    const to = await createDeployment(tenant.keys.editor);
    const promoted = await promote(from, { target_deployment_id: to.id });
    expect(promoted.status, promoted.text).toBe(200);
    const expected = {
      deployment_id: from.deploymentId,
      deployment_name: name,
      revision_id: from.revisionId,
      revision_number: from.number,
    };
    const cut = await api(
      `/v2/deployments/${to.id}/revisions/${promoted.body.latest_revision_id}`,
      { key: tenant.keys.viewer },
    );
    expect(cut.status, cut.text).toBe(200);
    expect(cut.body).toMatchObject({
      number: 2,
      image_digest: from.digest,
      promoted_from: expected,
    });
    const listed = await api(`/v2/deployments/${to.id}/revisions`, { key: tenant.keys.viewer });
    expect(listed.body.resources.map((r: { promoted_from: unknown }) => r.promoted_from)).toEqual([
      expected,
      null,
    ]);
    const source = await api(`/v2/deployments/${from.deploymentId}/revisions/${from.revisionId}`, {
      key: tenant.keys.viewer,
    });
    expect(source.body.promoted_from).toBeNull();

    // tRPC: the same field.
    const caller = createCaller({
      db: testDb(),
      requestId: "promoted",
      actor: tenant.actors.viewer,
    });
    const read = await caller.revisions.get({
      deploymentId: to.id,
      revisionId: promoted.body.latest_revision_id,
    });
    expect(read.promoted_from).toEqual(expected);
    const page = await caller.revisions.list({ deploymentId: to.id });
    expect(page.resources[0]!.promoted_from).toEqual(expected);

    // The record stays once the source deployment is deleted.
    const removed = await api(`/v2/deployments/${from.deploymentId}`, {
      key: tenant.keys.editor,
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const after = await api(
      `/v2/deployments/${to.id}/revisions/${promoted.body.latest_revision_id}`,
      { key: tenant.keys.viewer },
    );
    expect(after.body.promoted_from).toEqual(expected);
  });
});
