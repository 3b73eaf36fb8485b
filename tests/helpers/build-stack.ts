import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createDb, type Db } from "../../src/server/db";
import { pushBaseImage } from "../../testing/base-image";
import { createTestDatabase } from "../../testing/database";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { startRegistry, type RunningRegistry } from "../../testing/registry";
import {
  freePort,
  startServer,
  startWorkerProcess,
  type RunningServer,
  type RunningWorker,
} from "../../testing/server";
import { createTenant, type Tenant } from "./fixtures";
import { api } from "./http";

// Hangar building for real, for the build tests only: a database, a server, a registry trusting
// the server's tokens, the fake Kubernetes API and a worker with HANGAR_BUILDER=buildah, all of
// their own (the shared worker builds nothing), and a base image in the tenant's namespace.

export interface BuildStack {
  db: Db;
  tenant: Tenant;
  baseUrl: string;
  /** `127.0.0.1:<port>`, HANGAR_REGISTRY_URL. */
  registryHost: string;
  /** The folder the worker keeps its buildah storage and build folders in (HANGAR_DATA_DIR). */
  dataDir: string;
  /** The base image's repository, without a tag (a graph config's base_image). */
  baseImage: string;
  kube: FakeKubeApi;
  worker: RunningWorker;
  /** What the server printed (for a failure's message). */
  serverOutput(): string;
  /** Starts another worker with the same settings (after the test killed this one). */
  restartWorker(): Promise<void>;
  /** Another tenant, with a base image of its own in its workspace's namespace. */
  addTenant(): Promise<{ tenant: Tenant; baseImage: string }>;
  stop(): Promise<void>;
}

/** Pushes the test base image into `tenant`'s namespace as a client does; its repository. */
async function pushTenantBase(baseUrl: string, tenant: Tenant): Promise<string> {
  const base = await api("/v2/deployments", {
    key: tenant.keys.editor,
    baseUrl,
    method: "POST",
    body: {
      name: "langgraph-base",
      source: "internal_container",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    },
  });
  if (base.status !== 201) throw new Error(`base deployment: ${base.text}`);
  const token = await api(`/v2/deployments/${base.body.id}/push-token`, {
    key: tenant.keys.editor,
    baseUrl,
    method: "POST",
  });
  if (token.status !== 200) throw new Error(`push token: ${token.text}`);
  const baseImage = `${token.body.registry_url}/langgraph-base`;
  await pushBaseImage(`${baseImage}:3.11`, {
    user: "oauth2accesstoken",
    password: token.body.token,
  });
  return baseImage;
}

export async function startBuildStack(workerEnv: Record<string, string>): Promise<BuildStack> {
  const database = await createTestDatabase("hangar_builds");
  const dataDir = mkdtempSync(path.join(tmpdir(), "hangar-builds-"));
  const registryPort = await freePort();
  const registryHost = `127.0.0.1:${registryPort}`;
  const env = {
    ...inject("testEnv"),
    DATABASE_URL: database.url,
    HANGAR_DATA_DIR: dataDir,
    HANGAR_RATELIMIT_PREFIX: `rl-builds-${randomUUID()}`,
    HANGAR_REGISTRY_URL: registryHost,
    HANGAR_REGISTRY_API_URL: `http://${registryHost}`,
    HANGAR_BUILDER: "buildah",
  };
  const stoppers: (() => Promise<unknown>)[] = [
    async () => rmSync(dataDir, { recursive: true, force: true }),
    () => database.drop(),
  ];
  const stop = async () => {
    for (const step of stoppers.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const server: RunningServer = await startServer(env);
    stoppers.push(() => server.stop());
    const certificate = await (await fetch(`${server.url}/registry/certificate`)).text();
    const registry: RunningRegistry = await startRegistry({
      port: registryPort,
      realm: `${server.url}/registry/token`,
      service: "hangar-registry",
      certificatePem: certificate,
    });
    stoppers.push(() => registry.stop());
    const kube = await startFakeKubeApi();
    stoppers.push(() => kube.stop());
    const startWorker = async () => {
      const started = await startWorkerProcess(
        {
          ...env,
          HANGAR_KUBECONFIG: kube.kubeconfig(),
          HANGAR_ROLLOUT_TIMEOUT_SECONDS: "20",
          HANGAR_QUEUE_POLL_SECONDS: "0.5",
          ...workerEnv,
          // A restart mid-suite (build-sandbox) starts beside three busy integration files.
        },
        { startTimeoutMs: 60_000 },
      );
      stoppers.push(() => started.stop());
      return started;
    };
    const worker = await startWorker();
    const db = createDb(database.url, 3);
    stoppers.push(() => db.$disconnect());
    const tenant = await createTenant(db);

    // The base image lives in a repository of the tenant's workspace, pushed as a client does.
    const baseImage = await pushTenantBase(server.url, tenant);

    const stack: BuildStack = {
      db,
      tenant,
      baseUrl: server.url,
      registryHost,
      dataDir,
      baseImage,
      kube,
      worker,
      serverOutput: () => server.output(),
      async restartWorker() {
        stack.worker = await startWorker();
      },
      async addTenant() {
        const other = await createTenant(db);
        return { tenant: other, baseImage: await pushTenantBase(server.url, other) };
      },
      stop,
    };
    return stack;
  } catch (error) {
    await stop();
    throw error;
  }
}
