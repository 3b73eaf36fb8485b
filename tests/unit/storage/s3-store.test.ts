import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../src/lib/free-port";
import { testIo, uploadBuild } from "../../helpers/build-io";
import { s3UploadStore } from "../../../src/server/storage/s3";
import { uploadPathOf, UploadTooLarge, type UploadStore } from "../../../src/server/storage/types";
import { sampleProject, tarGz } from "../../helpers/tarball";

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

// The S3 store against a real S3-compatible server (s3rver) on loopback: a presigned PUT as the
// deploy client sends it, then what the builder does with the object.

let server: S3rver;
let directory: string;
let store: UploadStore;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "hangar-s3rver-"));
  const port = await freePort();
  server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: "hangar-uploads", configs: [] }],
  });
  await server.run();
  store = s3UploadStore({
    bucket: "hangar-uploads",
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const deploymentId = "01a20835-b832-729f-8b65-901e6e225f45";

describe("the S3-compatible upload store", () => {
  it("takes the client's PUT on a presigned URL and serves the builder the same bytes", async () => {
    const objectPath = uploadPathOf(deploymentId, "0b1c2d3e-0000-4000-8000-000000000001");
    const url = await store.uploadUrl(objectPath, Math.floor(Date.now() / 1000) + 900, "unused");
    expect(url).toContain("X-Amz-Signature=");
    const archive = tarGz(sampleProject());
    const res = await fetch(url, {
      method: "PUT",
      body: new Uint8Array(archive),
      headers: {
        "Content-Type": "application/gzip",
        "X-Goog-Content-Length-Range": "0,209715200",
      },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await store.exists(objectPath)).toBe(true);
    expect((await buffer(await store.open(objectPath))).equals(archive)).toBe(true);
    await store.remove(objectPath);
    expect(await store.exists(objectPath)).toBe(false);
  });

  it("stores through put() within the limit, refuses past it, and sweeps old uploads", async () => {
    const objectPath = uploadPathOf(deploymentId, "0b1c2d3e-0000-4000-8000-000000000004");
    await expect(
      store.put(objectPath, Readable.from(Buffer.alloc(2000)), 1000),
    ).rejects.toBeInstanceOf(UploadTooLarge);
    expect(await store.exists(objectPath)).toBe(false);
    expect(await store.put(objectPath, Readable.from(Buffer.alloc(500)), 1000)).toBe(500);
    expect(await store.sweep(new Date(Date.now() - 60_000))).toBe(0);
    expect(await store.sweep(new Date(Date.now() + 60_000))).toBe(1);
    expect(await store.exists(objectPath)).toBe(false);
  });

  it("feeds the builder, which releases the object once built", async () => {
    const objectPath = uploadPathOf(deploymentId, "0b1c2d3e-0000-4000-8000-000000000005");
    const url = await store.uploadUrl(objectPath, Math.floor(Date.now() / 1000) + 900, "");
    const put = await fetch(url, {
      method: "PUT",
      body: new Uint8Array(tarGz(sampleProject())),
      headers: { "Content-Type": "application/gzip" },
    });
    expect(put.status).toBe(200);
    const { builder, plan } = uploadBuild(store, path.join(directory, "builds"), objectPath);
    const built = await builder.build(plan, testIo().io);
    expect(built.imageRef).toMatch(/^hangar\.local\/builds:[0-9a-f]{64}$/);
    expect(built.lines).toContain("  FROM docker.io/langchain/langgraph-api:3.12");
    await builder.release!(plan);
    expect(await store.exists(objectPath)).toBe(false);
  });

  it("keeps tracing objects apart: swept by day past the retention, never by the upload sweep", async () => {
    const workspace = "0b1c2d3e-0000-4000-8000-00000000aaaa";
    const run = "0b1c2d3e-0000-4000-8000-00000000bbbb";
    const old = `tracing/20200101/${workspace}/${run}/${"a".repeat(64)}`;
    const recent = `tracing/20991231/${workspace}/${run}/${"b".repeat(64)}`;
    for (const object of [old, recent])
      expect(await store.put(object, Readable.from(Buffer.from(object)), 1000)).toBe(object.length);
    expect(await store.sweep(new Date(Date.now() + 60_000))).toBe(0);
    expect(await store.sweepTracing("20261129")).toBe(1);
    expect(await store.exists(old)).toBe(false);
    expect((await buffer(await store.open(recent))).toString()).toBe(recent);
  });
});
