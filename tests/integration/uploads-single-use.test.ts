import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sampleProject, tarGz } from "../helpers/tarball";
import {
  buildUpload,
  createForUpload,
  heldBody,
  issueUploadUrl,
  putUpload,
  storedArchive,
} from "../helpers/uploads";

// Upload URLs take one successful PUT each, claimed in PostgreSQL (issue 23, finding 4), and an
// upload is built by one revision: nobody who saw the URL can plant new source after the fact.

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const USED = { detail: "This upload URL has been used already.", code: "conflict" };
const EMPTY = {
  detail: "The upload is empty: PUT the gzipped tar as the body.",
  code: "bad_request",
};
const archiveOf = (marker: string) =>
  tarGz(sampleProject([{ path: "marker.txt", content: marker }]));
const storedFile = (objectPath: string) =>
  path.join(inject("testEnv").HANGAR_DATA_DIR!, "uploads", objectPath);
const uploadState = (uploadId: string) =>
  testDb().upload.findUnique({ where: { id: uploadId }, select: { state: true } });

async function newUpload(name: string) {
  const deploymentId = await createForUpload(tenant.keys.editor, name);
  return { deploymentId, ...(await issueUploadUrl(tenant.keys.editor, deploymentId)) };
}

describe("an upload URL", () => {
  it("refuses a second PUT (409), also once the build has removed the archive", async () => {
    const upload = await newUpload("single-use");
    expect((await putUpload(upload.upload_url, archiveOf("first"))).status).toBe(200);
    const again = await putUpload(upload.upload_url, archiveOf("second"));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(USED);

    const patched = await buildUpload(tenant.keys.editor, upload.deploymentId, upload.object_path);
    expect(patched.status, patched.text).toBe(200);
    const built = await waitForRevision(patched.body.latest_revision_id);
    expect(built.status, built.statusMessage ?? "").toBe("DEPLOYED");
    expect(existsSync(storedFile(upload.object_path))).toBe(false);

    const afterBuild = await putUpload(upload.upload_url, archiveOf("planted"));
    expect(afterBuild.status).toBe(409);
    expect(await afterBuild.json()).toEqual(USED);
    expect(existsSync(storedFile(upload.object_path))).toBe(false);
  });

  it("lets one of two racing PUTs store its archive; the other gets 409", async () => {
    const upload = await newUpload("race");
    const winner = archiveOf("winner");
    const held = heldBody();
    const first = putUpload(upload.upload_url, held.stream);
    held.send(winner.subarray(0, 100));
    // The first PUT has claimed the URL and is streaming when the second arrives.
    await waitFor(
      () => uploadState(upload.uploadId),
      (row) => row?.state === "UPLOADING",
      { what: "the first PUT's claim" },
    );
    const second = await putUpload(upload.upload_url, archiveOf("loser"));
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual(USED);
    held.send(winner.subarray(100));
    held.end();
    expect((await first).status).toBe(200);
    expect(await storedArchive(upload.object_path)).toEqual(winner);
  });

  it("takes exactly one of several PUTs sent at once, and keeps its bytes", async () => {
    const upload = await newUpload("burst");
    const archives = ["a", "b", "c", "d"].map(archiveOf);
    const answers = await Promise.all(archives.map((a) => putUpload(upload.upload_url, a)));
    const statuses = answers.map((a) => a.status);
    expect([...statuses].sort()).toEqual([200, 409, 409, 409]);
    expect(await storedArchive(upload.object_path)).toEqual(archives[statuses.indexOf(200)]);
  });

  it("answers an empty PUT 400 without using the URL up", async () => {
    const upload = await newUpload("empty");
    const none = await putUpload(upload.upload_url, Buffer.alloc(0), { "Content-Length": "0" });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual(EMPTY);
    // Chunked, ending with no bytes: only reading the body can tell.
    const chunked = heldBody();
    chunked.end();
    const endsEmpty = await putUpload(upload.upload_url, chunked.stream);
    expect(endsEmpty.status).toBe(400);
    expect(await endsEmpty.json()).toEqual(EMPTY);
    expect(existsSync(storedFile(upload.object_path))).toBe(false);

    const archive = archiveOf("after empty");
    expect((await putUpload(upload.upload_url, archive)).status).toBe(200);
    expect(await storedArchive(upload.object_path)).toEqual(archive);
  });

  it("stays usable after a PUT that failed: too large, or aborted by the client", async () => {
    const upload = await newUpload("failed-put");
    const tooLarge = heldBody();
    const refused = putUpload(upload.upload_url, tooLarge.stream, {
      "X-Goog-Content-Length-Range": "0,1000",
    });
    tooLarge.send(Buffer.alloc(4000, 1));
    tooLarge.end();
    expect((await refused).status).toBe(413);

    const aborted = heldBody();
    const abort = new AbortController();
    const cut = putUpload(upload.upload_url, aborted.stream, {}, abort.signal);
    aborted.send(Buffer.alloc(100, 2));
    await waitFor(
      () => uploadState(upload.uploadId),
      (row) => row?.state === "UPLOADING",
      { what: "the aborted PUT's claim" },
    );
    abort.abort();
    await expect(cut).rejects.toThrow();
    await waitFor(
      () => uploadState(upload.uploadId),
      (row) => row?.state === "ISSUED",
      { what: "the aborted PUT's claim released" },
    );

    const archive = archiveOf("after failures");
    expect((await putUpload(upload.upload_url, archive)).status).toBe(200);
    expect(await storedArchive(upload.object_path)).toEqual(archive);
  });
});

describe("an upload", () => {
  it("is built by one revision: another naming it ends BUILD_FAILED, a redeploy too", async () => {
    const upload = await newUpload("built-once");
    expect((await putUpload(upload.upload_url, archiveOf("once"))).status).toBe(200);
    const first = await buildUpload(tenant.keys.editor, upload.deploymentId, upload.object_path);
    const built = await waitForRevision(first.body.latest_revision_id);
    expect(built.status, built.statusMessage ?? "").toBe("DEPLOYED");

    const message = `Upload ${upload.object_path} was already built by revision 1: request a new upload URL and upload the source again.`;
    const second = await buildUpload(tenant.keys.editor, upload.deploymentId, upload.object_path);
    expect(second.status, second.text).toBe(200);
    const refused = await waitForRevision(second.body.latest_revision_id);
    expect(refused).toMatchObject({ number: 2, status: "BUILD_FAILED", statusMessage: message });

    const redeploy = await api(
      `/v2/deployments/${upload.deploymentId}/revisions/${built.id}/redeploy`,
      { key: tenant.keys.editor, method: "POST" },
    );
    expect(redeploy.status, redeploy.text).toBe(200);
    const again = await waitForRevision(redeploy.body.latest_revision_id);
    expect(again).toMatchObject({ number: 3, status: "BUILD_FAILED", statusMessage: message });
  });
});

describe("upload rows", () => {
  it("go a day after they were issued, and with their deployment", async () => {
    const stale = await newUpload("stale-rows");
    await testDb().upload.update({
      where: { id: stale.uploadId },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    const fresh = await issueUploadUrl(tenant.keys.editor, stale.deploymentId);
    expect(await uploadState(stale.uploadId)).toBeNull();
    expect(await uploadState(fresh.uploadId)).toEqual({ state: "ISSUED" });
    // A swept row allows nothing: its URL (still signed) stores no archive.
    const late = await putUpload(stale.upload_url, archiveOf("late"));
    expect(late.status).toBe(403);

    await testDb().deployment.delete({ where: { id: stale.deploymentId } });
    expect(await uploadState(fresh.uploadId)).toBeNull();
  });
});
