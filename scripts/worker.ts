// `npm run worker`: runs revision steps and teardowns from the job queue, on DATABASE_URL or the
// embedded database (the running one, else its own). Start as many as you like.
import path from "node:path";
import { LegacyDataError, resolveDatabase } from "../src/server/db/embedded";
import { ensureLocalSecrets } from "../src/server/db/local-secrets";
import { migrate } from "../src/server/db/migrate";

const dataDir = path.resolve(process.env.HANGAR_DATA_DIR ?? ".data");
// Given DATABASE_URL (as npm start gives its worker), the worker's code loads while the database
// is checked: a restarted worker takes over a stopped one's steps sooner.
const loading = process.env.DATABASE_URL ? import("../src/server/jobs/worker") : undefined;
const keySource = process.env.DATABASE_URL
  ? "HANGAR_ENCRYPTION_KEY"
  : await ensureLocalSecrets(dataDir);
const database = await resolveDatabase(dataDir).catch((error: Error) => {
  console.error(error instanceof LegacyDataError ? error.message : error);
  process.exit(1);
});
process.env.DATABASE_URL = database.url;
await migrate(database.url);
// A worker writes secrets too (a listener's objects): one with another key must not run.
if (process.env.HANGAR_ENCRYPTION_KEY) {
  const installation = await import("../src/server/installation/secrets");
  await installation.checkEncryptionKey(database.url, keySource).catch(async (error) => {
    if (!(error instanceof installation.EncryptionKeyMismatchError)) throw error;
    console.error(error.message);
    await database.close();
    process.exit(1);
  });
}
// Imported after DATABASE_URL is settled: the environment is parsed once, on first import.
const { startWorker } = await (loading ?? import("../src/server/jobs/worker"));
const worker = await startWorker(database.url);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await worker.stop();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
