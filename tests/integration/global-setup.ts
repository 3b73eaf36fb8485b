import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build-if-stale";
import { startCodehostServer } from "../../testing/codehost-server";
import { createTestDatabase } from "../../testing/database";
import { freePort, startServer, startWorkerProcess, testSecrets } from "../../testing/server";
import { ensurePostgres, ensureRedis, REDIS_URL } from "../../testing/services";

export const BOOTSTRAP_KEY = "hgr_integration_bootstrap_key_0123456789";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    testEnv: Record<string, string>;
    /** A local code host (testing/codehost-server.ts) serving the sample repositories. */
    codehostUrl: string;
    /** The worker's gate (testing/gate.ts): tests hold a step to see a revision mid-flight. */
    gateUrl: string;
    /** The port HANGAR_REGISTRY_URL names: registry.test.ts starts a registry on it. */
    registryPort: number;
  }
}

/**
 * Shared by the test run's worker: quick polling, and as many (dry-run) builds at once as other
 * steps, for the many test files cutting revisions in parallel. Its drivers are gated
 * (testing/gate.ts).
 */
export const WORKER_ENV = {
  HANGAR_QUEUE_POLL_SECONDS: "0.5",
  HANGAR_BUILD_CONCURRENCY: "4",
  // Test files cut revisions in one workspace each, and some hold a build at the gate while
  // another of theirs goes on: fair queueing has tests (build-fairness) with workers of its own.
  HANGAR_BUILD_WORKSPACE_CONCURRENCY: "4",
};

/** One throwaway database, one built server and one revision worker for the whole integration run. */
export default async function setup(project: TestProject) {
  await ensurePostgres();
  await ensureRedis();
  const database = await createTestDatabase();
  buildIfStale();
  const registryPort = await freePort();
  const env = {
    ...testSecrets,
    DATABASE_URL: database.url,
    REDIS_URL,
    // Rate-limit counters of this run only: parallel runs on the shared Redis never meet.
    HANGAR_RATELIMIT_PREFIX: `rl-test-${randomUUID()}`,
    // A loaded shared machine can starve Redis past the 30 ms default and fail open mid-test.
    HANGAR_RATELIMIT_REDIS_TIMEOUT_MS: "250",
    HANGAR_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
    // The local code hosts and OAuth servers of the tests listen on loopback, which the
    // outbound address policy refuses unless listed (127.0.0.2 and others stay refused).
    HANGAR_EGRESS_ALLOWLIST: "127.0.0.1",
    HANGAR_MODE: "managed",
    // Uploads and build contexts of this run only (server and worker share it).
    HANGAR_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hangar-it-data-")),
    // Hangar's registry (a real one, started by the registry test on this port; plain HTTP).
    HANGAR_REGISTRY_URL: `127.0.0.1:${registryPort}`,
    HANGAR_REGISTRY_API_URL: `http://127.0.0.1:${registryPort}`,
    // Small, so a test's code host can serve a repository archive past it quickly.
    HANGAR_CODEHOST_ARCHIVE_MAX_BYTES: String(4 * 1024 * 1024),
  };
  const server = await startServer(env);
  const codehost = await startCodehostServer();
  const worker = await startWorkerProcess({ ...env, ...WORKER_ENV }, { gated: true });
  project.provide("baseUrl", server.url);
  project.provide("codehostUrl", codehost.url);
  project.provide("gateUrl", worker.gateUrl!);
  project.provide("registryPort", registryPort);
  project.provide("testEnv", env);
  return async () => {
    await Promise.all([server.stop(), worker.stop(), codehost.stop()]);
    if (process.env.KEEP_TEST_DB !== "1") await database.drop();
    rmSync(env.HANGAR_DATA_DIR, { recursive: true, force: true });
  };
}
