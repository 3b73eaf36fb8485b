import { mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/lib/free-port";
import { createTestDatabase } from "../../testing/database";
import { api } from "../helpers/http";
import { LAUNCHER_KEY, launchHangar, newDataDir, type Launched } from "../helpers/launcher";
import { sampleProject, tarGz } from "../helpers/tarball";

// The deploy client's remote build with uploads in S3-compatible storage, end to end: `npm start`
// configured with HANGAR_S3_* against a real S3 server (s3rver) on loopback. The client PUTs to
// the presigned URL Hangar hands out, the worker builds from the bucket, and nothing of the
// upload lands in the data folder.

const BUCKET = "hangar-uploads";
let s3: S3rver;
let s3Directory: string;
let s3Url: string;
let hangar: Launched;
let dropDatabase = async () => undefined as void;

const call = (route: string, options: Parameters<typeof api>[1] = {}) =>
  api(route, { key: LAUNCHER_KEY, baseUrl: hangar.url, ...options });

type Revision = { status: string; status_message?: string | null };
const TERMINAL = ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED", "CREATE_FAILED"];

/** The client's poll: the revision's status until it is terminal. */
async function settled(deploymentId: string, revisionId: string): Promise<Revision> {
  let revision: Revision = { status: "QUEUED" };
  const deadline = Date.now() + 60_000;
  while (!TERMINAL.includes(revision.status)) {
    expect(Date.now(), `revision still ${revision.status}`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 250));
    revision = (await call(`/v2/deployments/${deploymentId}/revisions/${revisionId}`)).body;
  }
  return revision;
}

async function createForUpload(name: string): Promise<string> {
  const created = await call("/v2/deployments", {
    method: "POST",
    body: {
      name,
      source: "internal_source",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

const triggerBuild = (deploymentId: string, objectPath: string) =>
  call(`/v2/deployments/${deploymentId}`, {
    method: "PATCH",
    body: {
      revision_source: "internal_source",
      source_revision_config: {
        source_tarball_path: objectPath,
        langgraph_config_path: "langgraph.json",
      },
    },
  });

/** What the bucket holds right now (s3rver speaks the real ListObjectsV2 protocol). */
async function bucketKeys(): Promise<string[]> {
  const res = await fetch(`${s3Url}/${BUCKET}?list-type=2`);
  const xml = await res.text();
  return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  s3Directory = mkdtempSync(path.join(tmpdir(), "hangar-s3rver-"));
  const port = await freePort();
  s3Url = `http://127.0.0.1:${port}`;
  s3 = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory: s3Directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  await s3.run();
  const database = await createTestDatabase("hangar_launcher_s3");
  dropDatabase = database.drop;
  hangar = await launchHangar(await newDataDir(), {
    databaseUrl: database.url,
    env: {
      HANGAR_S3_BUCKET: BUCKET,
      HANGAR_S3_ENDPOINT: s3Url,
      HANGAR_S3_FORCE_PATH_STYLE: "true",
      HANGAR_S3_ACCESS_KEY_ID: "S3RVER",
      HANGAR_S3_SECRET_ACCESS_KEY: "S3RVER",
    },
  });
});

afterAll(async () => {
  await hangar?.signal("SIGTERM");
  await dropDatabase();
  if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  await s3?.close();
  rmSync(s3Directory, { recursive: true, force: true });
});

describe("npm start with uploads in S3-compatible storage", () => {
  it("takes the client's upload in the bucket and builds the revision from it", async () => {
    const id = await createForUpload("s3-agent");
    const issued = await call(`/v2/deployments/${id}/upload-url`, { method: "POST" });
    expect(issued.status, issued.text).toBe(200);
    const { upload_url, object_path } = issued.body as { upload_url: string; object_path: string };
    // The client PUTs to the bucket itself, with no API key.
    expect(new URL(upload_url).origin).toBe(s3Url);
    expect(upload_url).toContain("X-Amz-Signature=");
    const archive = tarGz(sampleProject());
    const put = await fetch(upload_url, {
      method: "PUT",
      body: new Uint8Array(archive),
      headers: {
        "Content-Type": "application/gzip",
        "X-Goog-Content-Length-Range": "0,209715200",
      },
    });
    expect(put.status).toBe(200);
    expect(await bucketKeys()).toContain(object_path);

    const patched = await triggerBuild(id, object_path);
    expect(patched.status, patched.text).toBe(200);
    const revisionId = patched.body.latest_revision_id as string;
    const revision = await settled(id, revisionId);
    expect(revision.status, revision.status_message ?? "").toBe("DEPLOYED");

    const logs = await call(`/v1/projects/${id}/revisions/${revisionId}/build_logs`, {
      method: "POST",
      body: { order: "asc", limit: 100 },
    });
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.logs.map((l: { message: string }) => l.message)).toContain(
      "Generated Dockerfile:",
    );
    // Built once: the object is removed from the bucket after the build.
    expect(await bucketKeys()).not.toContain(object_path);
  });

  it("builds an object once: a later PUT to the bucket is never built", async () => {
    const id = await createForUpload("s3-once");
    const issued = await call(`/v2/deployments/${id}/upload-url`, { method: "POST" });
    const { upload_url, object_path } = issued.body as { upload_url: string; object_path: string };
    const putToBucket = (marker: string) =>
      fetch(upload_url, {
        method: "PUT",
        body: new Uint8Array(tarGz(sampleProject([{ path: "marker.txt", content: marker }]))),
        headers: { "Content-Type": "application/gzip" },
      });
    expect((await putToBucket("first")).status).toBe(200);
    const first = await triggerBuild(id, object_path);
    const built = await settled(id, first.body.latest_revision_id);
    expect(built.status, built.status_message ?? "").toBe("DEPLOYED");

    // The bucket answers presigned PUTs itself: Hangar cannot refuse this one, only its build.
    expect((await putToBucket("planted")).status).toBe(200);
    const second = await triggerBuild(id, object_path);
    const refused = await settled(id, second.body.latest_revision_id);
    expect(refused).toMatchObject({
      status: "BUILD_FAILED",
      status_message: `Upload ${object_path} was already built by revision 1: request a new upload URL and upload the source again.`,
    });
  });

  it("fails the build, naming the object, when nothing was uploaded to the bucket", async () => {
    const id = await createForUpload("s3-missing");
    const issued = await call(`/v2/deployments/${id}/upload-url`, { method: "POST" });
    expect(issued.status, issued.text).toBe(200);
    const patched = await triggerBuild(id, issued.body.object_path);
    expect(patched.status, patched.text).toBe(200);
    const revision = await settled(id, patched.body.latest_revision_id);
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.status_message).toContain(`Upload ${issued.body.object_path} not found`);
  });
});
