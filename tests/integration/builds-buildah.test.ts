import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueBuildToken } from "../../src/server/services/registry/push-tokens";
import { branchSha, DEFAULT_TOKEN, startCodehostServer } from "../../testing/codehost-server";
import { startBuildStack, type BuildStack } from "../helpers/build-stack";
import { copyImage, processesWith } from "../helpers/built-images";
import { waitFor } from "../helpers/engine";
import { api } from "../helpers/http";
import { pythonProject, stackBuilds } from "../helpers/stack-builds";
import type { TarEntry } from "../helpers/tarball";
import { createForUpload } from "../helpers/uploads";

// Real builds: the deploy client's remote build, and a code-host repository, against a worker
// with HANGAR_BUILDER=buildah, Hangar's registry (a real one) and the fake Kubernetes API. The
// image is built from a base in the workspace's own repository (pulled with the build's token),
// pushed, and deployed by digest; a failing step, an interrupt and the time limit stop a build
// as users expect.

const TIMEOUT_SECONDS = 20;
const SECRET = "sk-build-secret-value";

let stack: BuildStack;

beforeAll(async () => {
  // One slot for other steps: a build in progress must not hold up a deploy.
  stack = await startBuildStack({
    HANGAR_WORKER_CONCURRENCY: "1",
    HANGAR_BUILD_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
  });
}, 240_000);
afterAll(() => stack?.stop());

const project = () =>
  pythonProject(
    stack.baseImage,
    "graph = 'built by hangar'\n",
    [{ path: ".env", content: `OPENAI_API_KEY=${SECRET}\n` }],
    { env: ".env" },
  );

const key = () => stack.tenant.keys.editor;
const builds = stackBuilds(() => stack);
const { buildLog, finished } = builds;

/** The project as a code host serves it: path -> content. */
const files = (entries: TarEntry[]) =>
  Object.fromEntries(entries.flatMap((e) => ("content" in e ? [[e.path, String(e.content)]] : [])));

/** The client's upload and PATCH; the revision it cut. */
const uploadAndBuild = (
  deploymentId: string,
  sourceConfig?: { build_command?: string; install_command?: string },
  entries: TarEntry[] = project(),
) => builds.uploadAndBuild(key(), deploymentId, entries, sourceConfig);

/** The worker's buildah processes (their command lines name a workspace's storage). */
const buildahProcesses = () =>
  processesWith(`${stack.dataDir}/buildah/workspaces/`).filter((p) =>
    /(^|\/)buildah /.test(p.cmd),
  );

type Revision = Awaited<ReturnType<typeof finished>>;

/**
 * The revision's image is in the registry at the digest it names, holds the project (its graph
 * file reads `graph`) and not its .env, was pushed with a token revoked since, and is what the
 * cluster was asked to run.
 */
async function expectDeployedImage(revision: Revision, name: string, graph: string) {
  const log = await buildLog(revision.id);
  expect(revision.status, log.join("\n")).toBe("DEPLOYED");
  expect(revision.imageDigest).toMatch(/^sha256:[a-f0-9]{64}$/);
  expect(revision.imageRef).toBe(
    `${stack.registryHost}/${stack.tenant.workspaceId}/${name}@${revision.imageDigest}`,
  );
  expect(log).toContain(`Pushed image digest ${revision.imageDigest}`);
  expect(log.join("\n")).not.toMatch(/hgp_|auth\.json/);
  expect(log.join("\n")).not.toContain(SECRET);
  const tokens = await stack.db.pushToken.findMany({ where: { revisionId: revision.id } });
  expect(tokens).toHaveLength(1);
  expect(tokens[0]!.revokedAt).not.toBeNull();

  const reader = await issueBuildToken(
    stack.db,
    { id: revision.id, deploymentId: revision.deploymentId, workspaceId: stack.tenant.workspaceId },
    300,
  );
  const image = copyImage(revision.imageRef!, `oauth2accesstoken:${reader.token}`);
  expect(image.digest).toBe(revision.imageDigest);
  expect(image.files.get("deps/app/agent/graph.py")?.toString()).toBe(graph);
  expect(image.files.has("deps/app/langgraph.json")).toBe(true);
  expect(image.files.has("bin/busybox")).toBe(true);
  expect([...image.files.keys()].filter((file) => /(^|\/)\.env$/.test(file))).toEqual([]);
  expect(image.raw.includes(SECRET)).toBe(false);

  type Workload = { kind: string; spec: { template: { spec: { containers: Container[] } } } };
  type Container = { image: string };
  const images = [...stack.kube.objects.values()]
    .map((o) => o as unknown as Workload)
    .filter((o) => o.kind === "Deployment")
    .flatMap((o) => o.spec.template.spec.containers.map((c) => c.image));
  expect(images).toContain(revision.imageRef);
  return log;
}

describe("a remote build with HANGAR_BUILDER=buildah", () => {
  it("pushes the project's image, pins its digest, deploys it by digest; .env stays out", async () => {
    const name = `built-${Date.now().toString(36)}`;
    const deploymentId = await createForUpload(key(), name, stack.baseUrl);
    const revision = await finished(await uploadAndBuild(deploymentId));
    const log = await expectDeployedImage(revision, name, "graph = 'built by hangar'\n");
    expect((await api("/info", { baseUrl: stack.baseUrl })).body.builder).toBe("buildah");
    // The build's output, line by line.
    expect(log).toContain(`STEP 1/5: FROM ${stack.baseImage}:3.11`);
    expect(log).toContain(
      "uv (stand-in): pip install --system --no-cache-dir -c /api/constraints.txt -e /deps/app",
    );
  }, 120_000);

  it("builds a code-host repository at its commit the same way", async () => {
    const host = await startCodehostServer({
      repos: [{ id: 3001, owner: "acme", name: "built-bot", files: files(project()) }],
    });
    try {
      const integration = await api("/v1/integrations/codehost", {
        key: stack.tenant.keys.admin,
        baseUrl: stack.baseUrl,
        method: "POST",
        body: { name: "local host", api_base_url: host.url, token: DEFAULT_TOKEN },
      });
      expect(integration.status, integration.text).toBe(201);
      const name = `from-repo-${Date.now().toString(36)}`;
      const created = await api("/v2/deployments", {
        key: key(),
        baseUrl: stack.baseUrl,
        method: "POST",
        body: {
          name,
          source: "codehost",
          source_config: {
            integration_id: integration.body.id,
            repo_url: `${host.url}/acme/built-bot`,
          },
          source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
        },
      });
      expect(created.status, created.text).toBe(201);
      const revision = await finished(created.body.latest_revision_id);
      const log = await expectDeployedImage(revision, name, "graph = 'built by hangar'\n");
      expect(log).toContain(
        `Fetching acme/built-bot at ${branchSha("acme", "built-bot", "main")} from ${host.url}`,
      );
    } finally {
      await host.stop();
    }
  }, 120_000);

  it("builds the same context again from the layer cache", async () => {
    const name = `cached-${Date.now().toString(36)}`;
    const deploymentId = await createForUpload(key(), name, stack.baseUrl);
    const first = await finished(await uploadAndBuild(deploymentId));
    expect(first.status).toBe("DEPLOYED");
    const secondId = await uploadAndBuild(deploymentId);
    const second = await finished(secondId);
    expect(second.status).toBe("DEPLOYED");
    const log = await buildLog(secondId);
    // Every step after FROM came from the cache: the same image, pushed again.
    const steps = log.filter((line) => /^STEP \d+\/\d+: /.test(line));
    const cached = log.filter((line) => line.startsWith("--> Using cache "));
    expect(steps.length).toBe(5);
    expect(cached.length, log.join("\n")).toBe(steps.length - 1);
    expect(second.imageDigest).toBe(first.imageDigest);
  }, 120_000);

  it("ends BUILD_FAILED naming a failing RUN step with its output", async () => {
    const deploymentId = await createForUpload(
      key(),
      `failing-${Date.now().toString(36)}`,
      stack.baseUrl,
    );
    const revisionId = await uploadAndBuild(deploymentId, {
      build_command: "echo boom-output && exit 3",
    });
    const revision = await finished(revisionId);
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toMatch(
      /^STEP 5\/6: RUN cd \/deps\/app && echo boom-output && exit 3 failed \(exit status 3\)\. Its last lines:\n {2}boom-output$/,
    );
    const errors = await stack.db.revisionLog.findMany({ where: { revisionId, level: "ERROR" } });
    expect(errors.map((l) => l.line)).toEqual([revision.statusMessage]);
    expect(buildahProcesses()).toEqual([]);
  }, 120_000);

  it("stops at once when interrupted (its whole sandbox is gone), deploys meanwhile", async () => {
    const deploymentId = await createForUpload(
      key(),
      `stopped-${Date.now().toString(36)}`,
      stack.baseUrl,
    );
    const marker = `sleep 300.${Date.now() % 1000}`;
    const revisionId = await uploadAndBuild(deploymentId, {
      build_command: `echo sleeping-now && ${marker}`,
    });
    await waitFor(
      () => buildLog(revisionId),
      (log) => log.includes("sleeping-now"),
      {
        timeoutMs: 60_000,
        what: "the build's RUN step to start",
      },
    );
    expect(buildahProcesses().length).toBeGreaterThan(0);
    expect(processesWith(marker).length).toBeGreaterThan(0);

    // Another revision's steps go ahead while the build runs (its slots are its own).
    const container = await api("/v2/deployments", {
      key: key(),
      baseUrl: stack.baseUrl,
      method: "POST",
      body: {
        name: `beside-${Date.now().toString(36)}`,
        source: "internal_container",
        source_config: { deployment_type: "dev" },
        source_revision_config: { image_uri: "registry.example/agent:1" },
      },
    });
    expect(container.status, container.text).toBe(201);
    const beside = await finished(container.body.latest_revision_id, 30_000);
    expect(beside.status).toBe("DEPLOYED");
    expect((await stack.db.revision.findUniqueOrThrow({ where: { id: revisionId } })).status).toBe(
      "BUILDING",
    );

    const res = await api(`/v2/deployments/${deploymentId}/revisions/${revisionId}/interrupt`, {
      key: key(),
      baseUrl: stack.baseUrl,
      method: "POST",
    });
    expect(res.status, res.text).toBe(200);
    await waitFor(
      async () => [...buildahProcesses(), ...processesWith(marker)],
      (left) => left.length === 0,
      { timeoutMs: 10_000, what: "buildah and the build's step to end" },
    );
    expect((await finished(revisionId)).status).toBe("INTERRUPTED");
    // The build's token was revoked when it stopped.
    await waitFor(
      () => stack.db.pushToken.findMany({ where: { revisionId } }),
      (tokens) => tokens.length === 1 && tokens[0]!.revokedAt !== null,
      { what: "the build token's revocation" },
    );
  }, 120_000);

  it("ends BUILD_FAILED when the build outlasts HANGAR_BUILD_TIMEOUT_SECONDS", async () => {
    const deploymentId = await createForUpload(
      key(),
      `slow-${Date.now().toString(36)}`,
      stack.baseUrl,
    );
    const revisionId = await uploadAndBuild(deploymentId, {
      build_command: "echo waiting-for-the-limit && sleep 300",
    });
    const revision = await finished(revisionId, 120_000);
    expect(revision.status).toBe("BUILD_FAILED");
    expect(revision.statusMessage).toBe(
      `The build took longer than HANGAR_BUILD_TIMEOUT_SECONDS (${TIMEOUT_SECONDS} s) and was stopped.`,
    );
    expect(await buildLog(revisionId)).toContain("waiting-for-the-limit");
    await waitFor(
      async () => buildahProcesses(),
      (left) => left.length === 0,
      {
        timeoutMs: 10_000,
        what: "buildah to end",
      },
    );
  }, 150_000);
});
