// The worker's live health watch alone (src/server/jobs/health), for e2e specs: it judges the
// deployments a spec runs on the fake Kubernetes API (HANGAR_KUBECONFIG) while the run's own
// worker stays dry run and takes every queued job. Prints "worker started" once watching.

export {};

const url = process.env.DATABASE_URL;
const kubeconfig = process.env.HANGAR_KUBECONFIG;
if (!url || !kubeconfig) throw new Error("DATABASE_URL and HANGAR_KUBECONFIG are required");

// Imported after the environment is set: it is parsed once, on first import.
const { createDb } = await import("../src/server/db");
const { loadKubeconfig } = await import("../src/server/jobs/drivers/kubernetes");
const { startHealthWatch } = await import("../src/server/jobs/health/watch");
const { recordRuntimeObservation } = await import("../src/server/services/runtime/state");
const { watchedDeployments } = await import("../src/server/services/runtime/watched");

const db = createDb(url, 4);
const watch = startHealthWatch(
  loadKubeconfig(kubeconfig),
  {
    targets: (ids) => watchedDeployments(db, ids),
    record: async (id, observation) =>
      void (await recordRuntimeObservation(db, id, "kubernetes", observation)),
  },
  { settleMs: 250, resyncMs: 5_000 },
);
console.log(JSON.stringify({ msg: "worker started" }));

async function stop() {
  watch.stop();
  await db.$disconnect();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
