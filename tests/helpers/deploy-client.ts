import { Agent, fetch as fetchWith } from "undici";
import { expect } from "vitest";
import { waitForRevision } from "./engine";
import { api } from "./http";
import { tarGz, type TarEntry } from "./tarball";

// The reference platform's deploy client, call by call (contract section 11), for the tests that
// upload a source archive: create (no artifact) -> upload-url -> PUT -> PATCH -> the revision.

/** Exactly the client's create for `langgraph deploy --remote`. */
export async function createForUpload(key: string, name: string) {
  const res = await api("/v2/deployments", {
    key,
    method: "POST",
    body: {
      name,
      source: "internal_source",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-from-the-env-file" }],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function uploadUrl(key: string, deploymentId: string) {
  const res = await api(`/v2/deployments/${deploymentId}/upload-url`, { key, method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.body as { upload_url: string; object_path: string };
}

/**
 * The client's PUT: no API key, its headers, a connection of its own (a refused upload is
 * answered before its body is read, and that connection is not reused).
 */
export const putUpload = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
  fetchWith(url, {
    dispatcher: new Agent({ pipelining: 0 }),
    method: "PUT",
    body: new Uint8Array(body),
    headers: {
      "Content-Type": "application/gzip",
      "X-Goog-Content-Length-Range": "0,209715200",
      ...headers,
    },
  });

/** The client's PATCH after the upload. */
export const triggerBuild = (
  key: string,
  deploymentId: string,
  objectPath: string,
  configPath = "langgraph.json",
) =>
  api(`/v2/deployments/${deploymentId}`, {
    key,
    method: "PATCH",
    body: {
      revision_source: "internal_source",
      source_revision_config: {
        source_tarball_path: objectPath,
        langgraph_config_path: configPath,
      },
      tracked_packages: ["langgraph", "langchain-core"],
      source_config: { install_command: "pip install -e .", build_command: "make build" },
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-from-the-env-file" }],
    },
  });

/** All of it for one archive: the revision once it has finished. */
export async function deployArchive(
  key: string,
  name: string,
  entries: TarEntry[],
  configPath?: string,
) {
  const created = await createForUpload(key, name);
  const { upload_url, object_path } = await uploadUrl(key, created.id);
  expect((await putUpload(upload_url, tarGz(entries))).status).toBe(200);
  const patched = await triggerBuild(key, created.id, object_path, configPath);
  expect(patched.status, patched.text).toBe(200);
  const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
    timeoutMs: 30_000,
  });
  return { created, patched: patched.body, revision, objectPath: object_path };
}
