// A revision worker for `npm run bench:revisions` whose drivers take BENCH_STEP_LATENCY_MS per
// step before doing their work, as a real build or deploy does. The benchmark injects them
// here; the product has no such setting.
import type { Drivers } from "../src/server/jobs/drivers";

const latency = Number(process.env.BENCH_STEP_LATENCY_MS ?? 200);
const url = process.env.DATABASE_URL!;
const { driversFromEnv } = await import("../src/server/jobs/drivers");
const { startWorker } = await import("../src/server/jobs/worker");

const wait = () => new Promise((r) => setTimeout(r, latency));
const after =
  <A extends unknown[], R>(step: (...args: A) => Promise<R>) =>
  async (...args: A) => {
    await wait();
    return step(...args);
  };

const base = await driversFromEnv();
const drivers: Drivers = {
  source: { resolve: after(base.source.resolve.bind(base.source)) },
  builder: { build: after(base.builder.build.bind(base.builder)) },
  deployer: {
    name: `${base.deployer.name}+${latency}ms`,
    runtime: base.deployer.runtime,
    apply: after(base.deployer.apply.bind(base.deployer)),
    teardown: after(base.deployer.teardown.bind(base.deployer)),
  },
};
const worker = await startWorker(url, { drivers });
const stop = async () => {
  await worker.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
