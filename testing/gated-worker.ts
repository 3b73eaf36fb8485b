// A revision worker for tests, with gated drivers (testing/gate.ts): the default drivers of its
// configuration, each step passing a gate that tests hold and release over HTTP. Prints the
// gate's URL before "worker started". HANGAR_TEST_HOLD="build,deploy" holds steps from the start.
import { createGate, gatedDrivers, serveGate, type GatedStep } from "./gate";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const initial = (process.env.HANGAR_TEST_HOLD ?? "")
  .split(",")
  .filter(Boolean)
  .map((step) => ({ step: step as GatedStep }));
const gate = createGate(initial);
const control = await serveGate(gate);
console.log(JSON.stringify({ msg: "gate listening", url: control.url }));

// Imported after the environment is set: it is parsed once, on first import.
const { driversFromEnv } = await import("../src/server/jobs/drivers");
const { startWorker } = await import("../src/server/jobs/worker");
const worker = await startWorker(url, { drivers: gatedDrivers(await driversFromEnv(), gate) });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  control.close();
  await worker.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
