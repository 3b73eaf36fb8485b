import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build-if-stale";
import { createTestDatabase } from "../helpers/database";
import { startServer, startWorkerProcess, testSecrets } from "../helpers/server";
import { ensurePostgres, ensureRedis, REDIS_URL } from "../helpers/services";

export const BOOTSTRAP_KEY = "hgr_integration_bootstrap_key_0123456789";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    testEnv: Record<string, string>;
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
    HANGAR_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
    HANGAR_MODE: "managed",
  };
  const server = await startServer(env);
  const worker = await startWorkerProcess({ ...env, ...WORKER_ENV });
  project.provide("baseUrl", server.url);
  project.provide("testEnv", env);
  return async () => {
    await Promise.all([server.stop(), worker.stop()]);
    if (process.env.KEEP_TEST_DB !== "1") await database.drop();
  };
}
