import { buildIfStale } from "../scripts/build-if-stale";
import { startCodehostServer } from "../testing/codehost-server";
import { createTestDatabase } from "../testing/database";
import { ensureChromium } from "../testing/chromium";
import { startServer, startWorkerProcess, testSecrets } from "../testing/server";
import { ensurePostgres, ensureRedis, REDIS_URL } from "../testing/services";
import { seed } from "./seed";

const BOOTSTRAP_KEY = "hgr_e2e_bootstrap_key_0123456789abcdef";
const admin = { email: "admin@hangar.test", password: "admin-password-123" };

/** A throwaway database, a built server and seeded data for the whole run; torn down after. */
export default async function globalSetup() {
  await ensurePostgres();
  await ensureRedis();
  ensureChromium();
  const database = await createTestDatabase("hangar_e2e");
  buildIfStale();
  const env = {
    ...testSecrets,
    DATABASE_URL: database.url,
    REDIS_URL,
    HANGAR_MODE: "managed",
    HANGAR_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
    // The local code hosts and OAuth servers of the tests listen on loopback, which the
    // outbound address policy refuses unless listed (127.0.0.2 and others stay refused).
    HANGAR_EGRESS_ALLOWLIST: "127.0.0.1",
    // Push tokens and the "Push an image" panel need only the configuration, not a registry.
    HANGAR_REGISTRY_URL: "registry.hangar.test:5000",
    HANGAR_ADMIN_EMAIL: admin.email,
    HANGAR_ADMIN_PASSWORD: admin.password,
  };
  const server = await startServer(env);
  // The real revision engine beside the server, with gated drivers: a spec holds a deployment's
  // deploy step to watch its revision mid-flight, then releases it (engineGate()).
  const worker = await startWorkerProcess(
    { ...env, HANGAR_QUEUE_POLL_SECONDS: "0.5" },
    { gated: true },
  ).catch(async (error) => {
    await server.stop();
    await database.drop();
    throw error;
  });
  try {
    const state = await seed(server.url, database.url, BOOTSTRAP_KEY, admin);
    // Workers start after this and inherit the environment.
    process.env.E2E_STATE = JSON.stringify(state);
    process.env.E2E_GATE_URL = worker.gateUrl;
    // promotion.spec.ts marks a revision as pushed (no registry runs here): it writes one row.
    process.env.E2E_DATABASE_URL = database.url;
  } catch (error) {
    await worker.stop();
    await server.stop();
    await database.drop();
    throw error;
  }

  // --- Listeners: one self-hosted server on the same database (Settings → Listeners). ---
  const selfHosted = await startServer({ ...env, HANGAR_MODE: "self_hosted" }).catch(
    async (error) => {
      await worker.stop();
      await server.stop();
      await database.drop();
      throw error;
    },
  );
  process.env.E2E_SELF_HOSTED_URL = selfHosted.url;
  // --- end listeners ---

  // --- Runtime logs: a spec starts a server with a cluster (the fake API) on this database. ---
  process.env.E2E_SERVER_ENV = JSON.stringify(env);
  // --- end runtime logs ---

  // --- Import wizard: a local code host the wizard registers and imports from. ---
  const codehost = await startCodehostServer();
  process.env.E2E_CODEHOST_URL = codehost.url;
  // --- end import wizard ---

  return async () => {
    await codehost.stop();
    await selfHosted.stop();
    await worker.stop();
    await server.stop();
    if (process.env.KEEP_TEST_DB !== "1") await database.drop();
  };
}
