import { beforeAll, describe, expect, inject, it } from "vitest";
import type { CreateDeploymentInput } from "../../src/schemas/deployments";
import type { Actor } from "../../src/server/auth/actor";
import { createCaller } from "../../src/server/api/root";
import { uniqueName } from "../helpers/deployments";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { sampleProject, tarGz } from "../helpers/tarball";

// The dashboard's source upload: create with no artifact, a signed URL through tRPC, the
// browser's PUT, then the patch that cuts revision 1 (the deploy client's REST route, via tRPC).

let tenant: Tenant;
let other: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const caller = (actor: Actor) =>
  createCaller({ db: testDb(), requestId: "trpc-upload", actor, origin: inject("baseUrl") });

const awaitingUpload = (): CreateDeploymentInput => ({
  name: uniqueName("upload"),
  source: "internal_source",
  source_config: { deployment_type: "dev" },
  source_revision_config: {},
});

describe("tRPC deployments.uploadUrl", () => {
  it("signs a URL the browser PUTs to; the patch with its path deploys the archive", async () => {
    const editor = caller(tenant.actors.editor);
    const created = await editor.deployments.create(awaitingUpload());
    expect(created.latest_revision_id).toBeNull();

    const { upload_url, object_path } = await editor.deployments.uploadUrl({ id: created.id });
    expect(new URL(upload_url).origin).toBe(inject("baseUrl"));
    const put = await fetch(upload_url, {
      method: "PUT",
      headers: { "Content-Type": "application/gzip" },
      body: new Uint8Array(tarGz(sampleProject())),
    });
    expect(put.status, await put.text()).toBe(200);

    const { deployment } = await editor.deployments.patch({
      id: created.id,
      patch: {
        source_revision_config: {
          source_tarball_path: object_path,
          graph_config_path: "langgraph.json",
        },
      },
    });
    const revision = await waitForRevision(deployment.latest_revision_id!);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
  });

  it("signs single-use URLs: one successful PUT, none after the build", async () => {
    const editor = caller(tenant.actors.editor);
    const created = await editor.deployments.create(awaitingUpload());
    const { upload_url, object_path } = await editor.deployments.uploadUrl({ id: created.id });
    const put = (body: Buffer) =>
      fetch(upload_url, {
        method: "PUT",
        headers: { "Content-Type": "application/gzip" },
        body: new Uint8Array(body),
      });
    // An empty body is refused without using the URL up.
    expect((await put(Buffer.alloc(0))).status).toBe(400);
    expect((await put(tarGz(sampleProject()))).status).toBe(200);
    expect((await put(tarGz(sampleProject()))).status).toBe(409);

    const { deployment } = await editor.deployments.patch({
      id: created.id,
      patch: {
        source_revision_config: {
          source_tarball_path: object_path,
          graph_config_path: "langgraph.json",
        },
      },
    });
    const revision = await waitForRevision(deployment.latest_revision_id!);
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    const late = await put(tarGz(sampleProject()));
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({
      detail: "This upload URL has been used already.",
      code: "conflict",
    });
  });

  it("refuses viewers, and another workspace's deployment is not found", async () => {
    const created = await caller(tenant.actors.editor).deployments.create(awaitingUpload());
    await expect(
      caller(tenant.actors.viewer).deployments.uploadUrl({ id: created.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller(other.actors.admin).deployments.uploadUrl({ id: created.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
