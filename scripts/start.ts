// `npm start`: prepares what the app needs and serves it, with a revision worker beside the web
// server. With no DATABASE_URL, the data lives in an embedded PostgreSQL server under
// HANGAR_DATA_DIR (default .data), started here, migrated, and stopped last when Hangar stops.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { LegacyDataError, resolveDatabase, type Database } from "../src/server/db/embedded";
import { ensureLocalSecrets } from "../src/server/db/local-secrets";
import { migrate } from "../src/server/db/migrate";
import { buildIfStale } from "./build-if-stale";

const dev = process.argv.includes("--dev");
const dataDir = path.resolve(process.env.HANGAR_DATA_DIR ?? ".data");
const port = process.env.PORT ?? "3000";

const keySource = await ensureLocalSecrets(dataDir);
let database: Database;
try {
  database = await resolveDatabase(dataDir, { adopt: true });
} catch (error) {
  console.error(error instanceof LegacyDataError ? error.message : error);
  process.exit(1);
}
try {
  process.env.DATABASE_URL = database.url;
  const { applied } = await migrate(database.url);
  if (applied.length) console.log(`Migrated: ${applied.join(", ")}`);
  // What every instance shares (README "Running more than one instance"); a wrong key stops here.
  const installation = await import("../src/server/installation/secrets");
  await installation.ensureInstallationSecrets(database.url, dataDir, keySource).catch((error) => {
    if (!(error instanceof installation.EncryptionKeyMismatchError)) throw error;
    console.error(error.message);
    return database.close().then(() => process.exit(1));
  });
  if (!dev) buildIfStale();
} catch (error) {
  console.error(error);
  await database.close();
  process.exit(1);
}

// An embedded server that exits unexpectedly is started again (src/server/db/embedded/supervisor.ts).
database.supervise?.();

const childEnv = { ...process.env, HANGAR_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
// Served, the web server stops gracefully on SIGTERM (src/server/shutdown.ts), not as Next would.
const next = spawn(
  process.execPath,
  ["node_modules/next/dist/bin/next", dev ? "dev" : "start", "-p", port],
  { stdio: "inherit", env: dev ? childEnv : { ...childEnv, NEXT_MANUAL_SIG_HANDLE: "1" } },
);
let stopping = false;
let worker: ChildProcess | undefined;
function startWorkerProcess() {
  worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    stdio: "inherit",
    env: childEnv,
  });
  // A crashed worker is restarted: its unfinished jobs are handed back by the lifeline of the
  // next worker to look (this one once restarted, or another), and retried at once.
  const startedAt = Date.now();
  worker.on("exit", (code) => {
    if (stopping) return;
    // At once after a worker that ran a while; a worker that fails at start waits a second.
    const delay = Date.now() - startedAt > 10_000 ? 0 : 1000;
    console.error(`Worker exited (${code}); restarting in ${delay / 1000} s`);
    setTimeout(startWorkerProcess, delay);
  });
}
startWorkerProcess();

const where = database.embedded
  ? `embedded PostgreSQL in ${path.join(dataDir, "postgres")}`
  : "PostgreSQL from DATABASE_URL";
console.log(`Hangar is starting on http://localhost:${port} (${where})`);

const exited = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    setTimeout(resolve, 15_000);
  });

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  worker?.kill("SIGTERM");
  // The database stops last: the web server drains its requests (up to
  // HANGAR_SHUTDOWN_GRACE_SECONDS), the worker finishes its steps or hands them back (10 s).
  await Promise.all([exited(next), exited(worker)]);
  await database.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));
