// `npm start`: prepares what the app needs and serves it. With no DATABASE_URL, the data lives
// in an embedded PGlite under HANGAR_DATA_DIR (default .data), migrated on start.
import { spawn } from "node:child_process";
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
const where = embedded ? `embedded PGlite in ${dataDir}` : "PostgreSQL from DATABASE_URL";
console.log(`Hangar is starting on http://localhost:${port} (${where})`);

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  await database.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));
