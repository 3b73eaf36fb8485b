import { Agent, fetch as fetchWith } from "undici";
import { expect } from "vitest";
import { uploadStore } from "../../src/server/storage";
import { waitForRevision } from "./engine";
import { api } from "./http";
import { tarGz, type TarEntry } from "./tarball";

// The deploy client's upload calls over HTTP: create a deployment awaiting an upload, get an
// upload URL, PUT to it, PATCH the object path in; and the stored archive read back.

/** The client's create for `langgraph deploy --remote` (no artifact yet); `extra` joins the body. */
export async function createDeploymentForUpload(
  key: string,
  name: string,
  options: { baseUrl?: string; extra?: Record<string, unknown> } = {},
) {
  const res = await api("/v2/deployments", {
    key,
    baseUrl: options.baseUrl,
    method: "POST",
    body: {
      name,
      source: "internal_source",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
      ...options.extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function createForUpload(key: string, name: string, baseUrl?: string) {
  return (await createDeploymentForUpload(key, name, { baseUrl })).id as string;
}

export async function issueUploadUrl(key: string, deploymentId: string, baseUrl?: string) {
  const res = await api(`/v2/deployments/${deploymentId}/upload-url`, {
    key,
    baseUrl,
    method: "POST",
  });
  expect(res.status, res.text).toBe(200);
  const issued = res.body as { upload_url: string; object_path: string };
  return { ...issued, uploadId: new URL(issued.upload_url).pathname.split("/").at(-1)! };
}

/** The client's PUT (no API key), on a connection of its own; a stream is sent chunked. */
export const putUpload = (
  url: string,
  body: Buffer | ReadableStream<Uint8Array> | null,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) =>
  fetchWith(url, {
    dispatcher: new Agent({ pipelining: 0 }),
    method: "PUT",
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : body,
    duplex: "half",
    signal,
    headers: {
      "Content-Type": "application/gzip",
      "X-Goog-Content-Length-Range": "0,209715200",
      ...headers,
    },
  });

/** A request body the test feeds by hand: nothing past `send` reaches the server until then. */
export function heldBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    send: (bytes: Buffer) => controller.enqueue(new Uint8Array(bytes)),
    end: () => controller.close(),
  };
}

/** The client's PATCH naming the uploaded object: cuts a revision that builds it. */
export const buildUpload = (
  key: string,
  deploymentId: string,
  objectPath: string,
  options: {
    baseUrl?: string;
    sourceConfig?: Record<string, unknown>;
    configPath?: string;
    /** More of the client's PATCH (tracked_packages, secrets). */
    extra?: Record<string, unknown>;
  } = {},
) =>
  api(`/v2/deployments/${deploymentId}`, {
    key,
    baseUrl: options.baseUrl,
    method: "PATCH",
    body: {
      revision_source: "internal_source",
      source_revision_config: {
        source_tarball_path: objectPath,
        langgraph_config_path: options.configPath ?? "langgraph.json",
      },
      ...(options.sourceConfig ? { source_config: options.sourceConfig } : {}),
      ...options.extra,
    },
  });

/** The archive as stored (decrypted with the run's key, which the tests share). */
export async function storedArchive(objectPath: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await uploadStore().open(objectPath)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The whole remote build for one archive: the revision once it has finished. */
export async function deployArchive(key: string, name: string, entries: TarEntry[]) {
  const deploymentId = await createForUpload(key, name);
  const { upload_url, object_path } = await issueUploadUrl(key, deploymentId);
  expect((await putUpload(upload_url, tarGz(entries))).status).toBe(200);
  const patched = await buildUpload(key, deploymentId, object_path);
  expect(patched.status, patched.text).toBe(200);
  return waitForRevision(patched.body.latest_revision_id, undefined, { timeoutMs: 30_000 });
}
