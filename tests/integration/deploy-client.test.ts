import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sampleProject, tarGz, type TarEntry } from "../helpers/tarball";
import {
  buildUpload,
  createDeploymentForUpload,
  issueUploadUrl,
  putUpload,
} from "../helpers/uploads";

// The reference platform's deploy client, request by request, as it calls Hangar for a remote
// build: create (no artifact) -> upload-url -> PUT -> PATCH -> poll -> logs -> URL.

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const uploadsDir = () => path.join(inject("testEnv").HANGAR_DATA_DIR!, "uploads");

const SECRETS = [{ name: "OPENAI_API_KEY", value: "sk-from-the-env-file" }];

/** Exactly the client's create for `langgraph deploy --remote`. */
const createForUpload = (name: string, key = tenant.keys.editor) =>
  createDeploymentForUpload(key, name, { extra: { secrets: SECRETS } });

const uploadUrl = (deploymentId: string, key = tenant.keys.editor) =>
  issueUploadUrl(key, deploymentId);

/**
 * The client's PUT: no API key, its headers, a connection of its own (a refused upload is
 * answered before its body is read, and that connection is not reused).
 */
const put = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
  putUpload(url, body, headers);

/** Exactly the client's PATCH after the upload. */
const triggerBuild = (deploymentId: string, objectPath: string, configPath = "langgraph.json") =>
  buildUpload(tenant.keys.editor, deploymentId, objectPath, {
    configPath,
    sourceConfig: { install_command: "pip install -e .", build_command: "make build" },
    extra: { tracked_packages: ["langgraph", "langchain-core"], secrets: SECRETS },
  });

async function deployArchive(name: string, entries: TarEntry[], configPath?: string) {
  const created = await createForUpload(name);
  const { upload_url, object_path } = await uploadUrl(created.id);
  expect((await put(upload_url, tarGz(entries))).status).toBe(200);
  const patched = await triggerBuild(created.id, object_path, configPath);
  expect(patched.status, patched.text).toBe(200);
  const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
    timeoutMs: 30_000,
  });
  return { created, patched: patched.body, revision, objectPath: object_path };
}

const logsOf = (path_: string, body: Record<string, unknown>, key = tenant.keys.viewer) =>
  api(path_, { key, method: "POST", body });

describe("the deploy client's remote build, end to end", () => {
  it("creates, uploads, patches, deploys, reads the logs and prints the URL", async () => {
    const created = await createForUpload("cli-agent");
    expect(created).toMatchObject({
      source: "internal_source",
      latest_revision_id: null,
      active_revision_id: null,
      tracked_packages: [],
    });
    expect(
      (await api(`/v2/deployments/${created.id}/revisions`, { key: tenant.keys.viewer })).body
        .resources,
    ).toEqual([]);

    const { upload_url, object_path } = await uploadUrl(created.id);
    expect(object_path).toMatch(
      new RegExp(`^deployments/${created.id}/uploads/[0-9a-f-]{36}\\.tar\\.gz$`),
    );
    expect(new URL(upload_url).origin).toBe(inject("baseUrl"));
    const archive = tarGz(sampleProject());
    const uploaded = await put(upload_url, archive, { "Content-Length": String(archive.length) });
    expect(uploaded.status).toBe(200);
    // Stored encrypted: the .env's value is nowhere in the stored bytes.
    const stored = path.join(uploadsDir(), object_path);
    expect(readFileSync(stored).includes(archive.subarray(0, 64))).toBe(false);
    // Single use.
    expect((await put(upload_url, archive)).status).toBe(409);

    const patched = await triggerBuild(created.id, object_path);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      tracked_packages: ["langgraph", "langchain-core"],
      source_config: { install_command: "pip install -e .", build_command: "make build" },
      source_revision_config: {
        source_tarball_path: object_path,
        graph_config_path: "langgraph.json",
      },
    });

    // The client polls the newest revision.
    const listed = await api(`/v2/deployments/${created.id}/revisions?limit=1`, {
      key: tenant.keys.viewer,
    });
    const revisionId = listed.body.resources[0].id;
    expect(revisionId).toBe(patched.body.latest_revision_id);
    const revision = await waitForRevision(revisionId, undefined, { timeoutMs: 30_000 });
    expect(revision.status, revision.statusMessage ?? "").toBe("DEPLOYED");
    expect(revision.buildPlan).toMatchObject({
      graph_config: { path: "langgraph.json", runtime: "python", version: "3.12" },
      context: { files: 3 },
    });
    expect((revision.buildPlan as { dockerfile: string }).dockerfile).toContain(
      "FROM docker.io/langchain/langgraph-api:3.12",
    );
    // Built once: the upload is gone, and the context holds no .env.
    expect(existsSync(stored)).toBe(false);

    const build = await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
      order: "asc",
      limit: 50,
    });
    expect(build.status, build.text).toBe(200);
    const messages = build.body.logs.map((l: { message: string }) => l.message);
    expect(messages).toContain("Generated Dockerfile:");
    expect(messages).toContain("  FROM docker.io/langchain/langgraph-api:3.12");
    expect(messages).toContain(
      "Tracked package langgraph: no version constraint in the project's dependency files",
    );
    expect(messages.join("\n")).not.toContain("sk-");
    for (const entry of build.body.logs) {
      expect(entry).toEqual({
        id: expect.stringMatching(/^\d+$/),
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        level: "INFO",
        message: expect.any(String),
      });
    }
    expect(build.body.next_offset).toBeNull();

    // Paging: ids are stable, offset is opaque, desc is newest first.
    const first = await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
      order: "asc",
      limit: 2,
    });
    expect(first.body.logs.map((l: { id: string }) => l.id)).toEqual(
      build.body.logs.slice(0, 2).map((l: { id: string }) => l.id),
    );
    const second = await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
      order: "asc",
      limit: 2,
      offset: first.body.next_offset,
    });
    expect(second.body.logs.map((l: { id: string }) => l.id)).toEqual(
      build.body.logs.slice(2, 4).map((l: { id: string }) => l.id),
    );
    const newest = await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
      order: "desc",
      limit: 1,
    });
    expect(newest.body.logs[0].id).toBe(build.body.logs.at(-1).id);
    const filtered = await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
      query: "graph config",
      level: "info",
    });
    expect(filtered.body.logs).toHaveLength(1);
    expect(
      (
        await logsOf(`/v1/projects/${created.id}/revisions/${revisionId}/build_logs`, {
          offset: "garbage",
        })
      ).status,
    ).toBe(422);

    const revisionDeploy = await logsOf(
      `/v1/projects/${created.id}/revisions/${revisionId}/deploy_logs`,
      { limit: 100, order: "desc" },
    );
    expect(revisionDeploy.body.logs[0].message).toBe("Revision 1 deployed");
    // The deployment's own deploy_logs are its agent server's runtime logs: in dry run nothing
    // runs, and it says so rather than answering an empty page (issue 25).
    const runtimeLogs = await logsOf(`/v1/projects/${created.id}/deploy_logs`, {
      limit: 100,
      order: "desc",
    });
    expect(runtimeLogs.status).toBe(409);
    expect(runtimeLogs.body).toEqual({
      detail: `Nothing is running for deployment ${created.id}: Hangar runs in dry run (no cluster is configured), so no agent server was started and there are no runtime logs. Hangar's own deploy log is at POST /v1/projects/${created.id}/revisions/{revision_id}/deploy_logs.`,
      code: "conflict",
    });
    const runtime = await api(`/v2/deployments/${created.id}/runtime_state`, {
      key: tenant.keys.viewer,
    });
    expect(runtime.body).toMatchObject({
      running: false,
      source: "dry_run",
      healthy: null,
      reason: expect.stringMatching(/^Dry run: no cluster is configured, so nothing runs/),
      ready_replicas: 0,
    });

    // The URL the client prints, and the dashboard link it prints.
    const deployment = await api(`/v2/deployments/${created.id}`, { key: tenant.keys.viewer });
    expect(deployment.body).toMatchObject({
      status: "READY",
      tenant_id: tenant.workspaceId,
      source_config: { custom_url: "http://cli-agent.localhost" },
    });
    expect(JSON.stringify(revision.manifests)).toContain('"host":"cli-agent.localhost"');
    const link = await fetch(
      `${inject("baseUrl")}/o/${tenant.workspaceId}/host/deployments/${created.id}`,
      { redirect: "manual" },
    );
    expect(link.status).toBe(307);
    expect(new URL(link.headers.get("location")!, inject("baseUrl")).pathname).toBe(
      `/deployments/${created.id}`,
    );

    // Another workspace sees none of it.
    const other = await createTenant();
    expect(
      (await logsOf(`/v1/projects/${created.id}/deploy_logs`, {}, other.keys.viewer)).status,
    ).toBe(404);
    expect(
      (
        await api(`/v2/deployments/${created.id}/upload-url`, {
          key: other.keys.editor,
          method: "POST",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(`/v2/deployments/${created.id}/upload-url`, {
          key: tenant.keys.viewer,
          method: "POST",
        })
      ).status,
    ).toBe(403);
  }, 60_000);

  it("cuts a revision for every PATCH carrying source_revision_config, even an identical one", async () => {
    const created = await createForUpload("cli-repeat");
    const body = {
      revision_source: "internal_docker",
      source_revision_config: { image_uri: "registry.example/app:latest" },
    };
    const container = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: {
        name: "cli-image",
        source: "internal_docker",
        source_config: {},
        source_revision_config: {},
      },
    });
    expect(container.status, container.text).toBe(201);
    expect(container.body).toMatchObject({
      source: "internal_container",
      latest_revision_id: null,
    });
    const one = await api(`/v2/deployments/${container.body.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body,
    });
    const two = await api(`/v2/deployments/${container.body.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body,
    });
    expect(one.status, one.text).toBe(200);
    expect(two.body.latest_revision_id).not.toBe(one.body.latest_revision_id);
    // Other members keep their rules: a tracked_packages change alone cuts nothing.
    const tracked = await api(`/v2/deployments/${created.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { tracked_packages: ["langgraph"] },
    });
    expect(tracked.status, tracked.text).toBe(200);
    expect(tracked.body).toMatchObject({
      tracked_packages: ["langgraph"],
      latest_revision_id: null,
    });
  });
});

describe("the upload URL", () => {
  it("refuses an expired or altered URL (403) and a missing signature", async () => {
    const created = await createForUpload("cli-signed");
    const { upload_url } = await uploadUrl(created.id);
    const archive = tarGz(sampleProject());
    const url = new URL(upload_url);
    const tampered = new URL(url);
    tampered.searchParams.set(
      "signature",
      url.searchParams.get("signature")!.replace(/^./, (c) => (c === "a" ? "b" : "a")),
    );
    expect((await put(tampered.href, archive)).status).toBe(403);
    const longer = new URL(url);
    longer.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await put(longer.href, archive)).status).toBe(403);
    const elsewhere = new URL(
      url.href.replace(created.id, (await createForUpload("cli-other")).id),
    );
    expect((await put(elsewhere.href, archive)).status).toBe(403);
    const bare = new URL(url);
    bare.search = "";
    expect((await put(bare.href, archive)).status).toBe(403);
    // An expired one: signed for the past with the server's key (the test shares it).
    const { signUpload } = await import("../../src/server/storage/signed-url");
    const objectPath = `deployments/${created.id}/uploads/${url.pathname.split("/").at(-1)}.tar.gz`;
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = new URL(url);
    expired.searchParams.set("expires", String(past));
    expired.searchParams.set("signature", signUpload(objectPath, past));
    const res = await put(expired.href, archive);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      detail: "The upload URL has expired: request a new one.",
    });
    // Nothing was stored by any of them.
    expect(existsSync(path.join(uploadsDir(), objectPath))).toBe(false);
    // The URL itself still works, once.
    expect((await put(upload_url, archive)).status).toBe(200);
  });

  it("refuses an upload over the limit while streaming (413, nothing kept) and other types (415)", async () => {
    const created = await createForUpload("cli-oversize");
    const { upload_url, object_path } = await uploadUrl(created.id);
    const big = Buffer.alloc(256 * 1024, 7);
    // Chunked (no Content-Length): only the streaming count can stop it.
    const res = await putUpload(
      upload_url,
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < 4; i++) controller.enqueue(big.subarray(i * 65536, (i + 1) * 65536));
          controller.close();
        },
      }),
      { "X-Goog-Content-Length-Range": "0,1000" },
    );
    expect(res.status).toBe(413);
    const folder = path.dirname(path.join(uploadsDir(), object_path));
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    const declared = await put(upload_url, Buffer.alloc(2000), {
      "X-Goog-Content-Length-Range": "0,1000",
    });
    expect(declared.status).toBe(413);
    expect(
      (await put(upload_url, Buffer.from("{}"), { "Content-Type": "application/json" })).status,
    ).toBe(415);
  });
});

describe("a bad archive or config ends in BUILD_FAILED naming the file and the problem", () => {
  it("../ entries", async () => {
    const { revision } = await deployArchive(
      "cli-traversal",
      sampleProject([{ path: "../../escape.txt", content: "x" }]),
    );
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe(
      "Source archive: ../../escape.txt: paths may not leave the archive (..)",
    );
    const dataDir = inject("testEnv").HANGAR_DATA_DIR!;
    expect(existsSync(path.join(dataDir, "escape.txt"))).toBe(false);
    expect(existsSync(path.join(dataDir, "builds", "escape.txt"))).toBe(false);
    const logs = await logsOf(
      `/v1/projects/${revision.deploymentId}/revisions/${revision.id}/build_logs`,
      { order: "desc", limit: 30, level: "ERROR" },
    );
    expect(logs.body.logs.map((l: { message: string }) => l.message)).toEqual([
      revision.statusMessage,
    ]);
  });

  it("a missing graph config", async () => {
    const { revision } = await deployArchive(
      "cli-noconfig",
      sampleProject(),
      "agents/langgraph.json",
    );
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe(
      "agents/langgraph.json: not found in the uploaded archive (graph_config_path)",
    );
  });

  it("a graph whose file is not in the archive", async () => {
    const entries = sampleProject().filter((e) => e.path !== "src/agent.py");
    const { revision } = await deployArchive("cli-nograph", entries);
    expect(revision.statusMessage).toBe(
      "langgraph.json: graphs.agent: file ./src/agent.py not found in the archive",
    );
  });

  it("a tarball path that is not this deployment's upload", async () => {
    const created = await createForUpload("cli-foreign");
    const patched = await triggerBuild(
      created.id,
      "deployments/00000000-0000-4000-8000-000000000000/uploads/00000000-0000-4000-8000-000000000000.tar.gz",
    );
    const revision = await waitForRevision(patched.body.latest_revision_id, undefined, {
      timeoutMs: 30_000,
    });
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toMatch(/is not an upload of this deployment/);
  });
});

describe("code-host integrations one by one", () => {
  it("reads one and deletes it; 409 while a deployment uses it", async () => {
    // Integrations belong to the organization: its admins create and delete them (issue 11).
    const created = await api("/v1/integrations/codehost", {
      key: tenant.keys.admin,
      method: "POST",
      body: { name: "to delete", api_base_url: inject("codehostUrl"), token: "codehost-dev-token" },
    });
    expect(created.status, created.text).toBe(201);
    const one = await api(`/v1/integrations/codehost/${created.body.id}`, {
      key: tenant.keys.viewer,
    });
    expect(one.body).toEqual(created.body);
    const other = await createTenant();
    expect(
      (await api(`/v1/integrations/codehost/${created.body.id}`, { key: other.keys.viewer }))
        .status,
    ).toBe(404);
    expect(
      (
        await api(`/v1/integrations/codehost/${created.body.id}`, {
          key: tenant.keys.viewer,
          method: "DELETE",
        })
      ).status,
    ).toBe(403);

    const used = await testDb().deployment.create({
      data: {
        workspaceId: tenant.workspaceId,
        name: "uses-integration",
        source: "codehost",
        sourceConfig: {},
        sourceRevisionConfig: {},
        integrationId: created.body.id,
      },
    });
    const refused = await api(`/v1/integrations/codehost/${created.body.id}`, {
      key: tenant.keys.admin,
      method: "DELETE",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/used by 1 deployment/);
    await testDb().deployment.delete({ where: { id: used.id } });
    expect(
      (
        await api(`/v1/integrations/codehost/${created.body.id}`, {
          key: tenant.keys.admin,
          method: "DELETE",
        })
      ).status,
    ).toBe(204);
    expect(
      (await api(`/v1/integrations/codehost/${created.body.id}`, { key: tenant.keys.viewer }))
        .status,
    ).toBe(404);
  });
});
