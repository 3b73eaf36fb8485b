import { randomUUID } from "node:crypto";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build-if-stale";
import { startCodehostServer } from "../../scripts/codehost-server";
import { createTestDatabase } from "../helpers/database";
import { startServer, startWorkerProcess, testSecrets } from "../helpers/server";
import { ensurePostgres, ensureRedis, REDIS_URL } from "../helpers/services";

export const BOOTSTRAP_KEY = "hgr_integration_bootstrap_key_0123456789";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    testEnv: Record<string, string>;
    /** A local code host (scripts/codehost-server.ts) serving the sample repositories. */
    codehostUrl: string;
  }
}

/** Shared by the test run's worker: quick polling; a step delay so tests can see a revision mid-flight. */
export const WORKER_ENV = { HANGAR_QUEUE_POLL_SECONDS: "0.5", HANGAR_FAKE_STEP_DELAY_MS: "150" };

/** One throwaway database, one built server and one revision worker for the whole integration run. */
export default async function setup(project: TestProject) {
  await ensurePostgres();
  await ensureRedis();
  const database = await createTestDatabase();
  buildIfStale();
  const env = {
    ...testSecrets,
    DATABASE_URL: database.url,
    REDIS_URL,
    // Rate-limit counters of this run only: parallel runs on the shared Redis never meet.
    HANGAR_RATELIMIT_PREFIX: `rl-test-${randomUUID()}`,
    // A loaded shared machine can starve Redis past the 30 ms default and fail open mid-test.
    HANGAR_RATELIMIT_REDIS_TIMEOUT_MS: "250",
    HANGAR_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
    HANGAR_MODE: "managed",
  };
  const server = await startServer(env);
  const codehost = await startCodehostServer();
  const worker = await startWorkerProcess({ ...env, ...WORKER_ENV });
  project.provide("baseUrl", server.url);
  project.provide("codehostUrl", codehost.url);
  project.provide("testEnv", env);
  return async () => {
    await Promise.all([server.stop(), worker.stop(), codehost.stop()]);
    if (process.env.KEEP_TEST_DB !== "1") await database.drop();
  };
}
