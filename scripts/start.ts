// `npm start`: prepares what the app needs and serves it, with a revision worker beside the web
// server. With no DATABASE_URL, the data lives in an embedded PGlite under HANGAR_DATA_DIR
// (default .data), migrated on start; the worker connects to the same embedded database.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { resolveDatabase } from "../src/server/db/embedded";
import { ensureLocalSecrets } from "../src/server/db/local-secrets";
import { migrate } from "../src/server/db/migrate";
import { buildIfStale } from "./build-if-stale";

const dev = process.argv.includes("--dev");
const dataDir = path.resolve(process.env.HANGAR_DATA_DIR ?? ".data");
const port = process.env.PORT ?? "3000";

await ensureLocalSecrets(dataDir);
const embedded = !process.env.DATABASE_URL;
const database = await resolveDatabase(dataDir);
process.env.DATABASE_URL = database.url;
const { applied } = await migrate(database.url);
if (applied.length) console.log(`Migrated: ${applied.join(", ")}`);
if (!dev) buildIfStale();

const next = spawn(
  process.execPath,
  ["node_modules/next/dist/bin/next", dev ? "dev" : "start", "-p", port],
  {
    stdio: "inherit",
    env: { ...process.env, HANGAR_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" },
  },
);
const childEnv = { ...process.env, HANGAR_DATA_DIR: dataDir };
let stopping = false;
let worker: ChildProcess | undefined;
function startWorkerProcess() {
  worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    stdio: "inherit",
    env: childEnv,
  });
  // A crashed worker is restarted: its unfinished jobs expire and are retried.
  worker.on("exit", (code) => {
    if (stopping) return;
    console.error(`Worker exited (${code}); restarting in 1 s`);
    setTimeout(startWorkerProcess, 1000);
  });
}
startWorkerProcess();

const where = embedded ? `embedded PGlite in ${dataDir}` : "PostgreSQL from DATABASE_URL";
console.log(`Hangar is starting on http://localhost:${port} (${where})`);

const exited = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    setTimeout(resolve, 12_000);
  });

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  worker?.kill("SIGTERM");
  // The embedded database closes last: the worker finishes its current step first.
  await Promise.all([exited(next), exited(worker)]);
  await database.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));
