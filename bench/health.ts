// `npm run bench:health`: live health of BENCH_DEPLOYMENTS (default 200) deployments on a cluster
// (the fake Kubernetes API, testing/fake-kube-api.ts), through the real worker and server.
// 1. Idle CPU of the worker (its watch) and of the server (one dashboard's event stream open),
//    as % of one core over BENCH_IDLE_SECONDS (default 20): first with nothing deployed (the
//    baseline, same processes, same run), then with every deployment deployed and watched.
// 2. Change-to-dashboard latency: a deployment's pods start crash-looping (then recover); the
//    clock runs until the dashboard's path has it: the workspace's event stream (contract 5.5)
//    sent a `change` for it and a read of its runtime_state then says so. BENCH_SAMPLES (default
//    40) changes, p50 / p99 / max.
import { randomBytes } from "node:crypto";
import { createTestDatabase } from "../testing/database";
import { startFakeKubeApi } from "../testing/fake-kube-api";
import { startServer, startWorkerProcess, testSecrets } from "../testing/server";
import { ensurePostgres } from "../testing/services";
import { cpuMeter } from "./cpu";
import { percentileOf } from "./http-load";
import { benchViewerKey, benchWorkspace } from "./workspace";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 200);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);

process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = percentileOf;

await ensurePostgres();
const database = await createTestDatabase("hangar_bench_health");
const db = createDb(database.url, 4);
const kube = await startFakeKubeApi();
const own = { DATABASE_URL: database.url, HANGAR_KUBECONFIG: kube.kubeconfig() };
const worker = await startWorkerProcess({
  ...own,
  HANGAR_QUEUE_POLL_SECONDS: "2",
  HANGAR_WORKER_CONCURRENCY: "4",
});
const server = await startServer({ ...own, HANGAR_RATELIMIT_ENABLED: "false" });

try {
  const { ws, actor } = await benchWorkspace(db, `health-${Date.now()}`);
  const headers = await benchViewerKey(db, ws);

  // The dashboard's event stream: every change of the workspace, as it arrives.
  const changes: { id: string; at: number }[] = [];
  const stream = await fetch(`${server.url}/v2/deployments/events`, { headers });
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of stream.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (block.includes("event: change") && data)
          changes.push({
            id: (JSON.parse(data) as { deployment_id: string }).deployment_id,
            at: Date.now(),
          });
      }
    }
  })().catch(() => undefined);

  async function idle(label: string) {
    // Past start-up and the last change's work: what stays is the idle cost.
    await sleep(10_000);
    const workerMeter = await cpuMeter(db, [worker.process.pid!]);
    const serverMeter = await cpuMeter(db, [server.process.pid!]);
    const started = Date.now();
    await sleep(IDLE_SECONDS * 1000);
    const wall = (Date.now() - started) / 1000;
    const w = (await workerMeter()).processes / wall;
    const s = (await serverMeter()).processes / wall;
    console.log(
      `idle, ${label}: worker ${(w * 100).toFixed(2)} % of a core, server ${(s * 100).toFixed(2)} % of a core (${wall.toFixed(0)} s)`,
    );
    return { worker: w, server: s };
  }

  const baseline = await idle("nothing deployed (baseline)");

  const deployments: { id: string; name: string }[] = [];
  for (let i = 0; i < COUNT; i++) {
    const name = `health-${i}`;
    const created = await createDeployment(db, actor, {
      name,
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: `registry.example/agent:${i}` },
      secrets: [{ name: "TOKEN", value: randomBytes(8).toString("hex") }],
    } as Parameters<typeof createDeployment>[2]);
    deployments.push({ id: created.id, name });
  }
  const ids = deployments.map((d) => d.id);
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const healthy = await db.deploymentRuntimeState.count({
      where: { deploymentId: { in: ids }, healthy: true },
    });
    if (healthy === COUNT) break;
    if (Date.now() > deadline) throw new Error(`only ${healthy} of ${COUNT} deployments healthy`);
    await sleep(1000);
  }
  console.log(
    `${COUNT} deployments deployed and observed healthy; watches open: ${kube.watchCount()}`,
  );

  const loaded = await idle(`${COUNT} deployments watched`);
  console.log(
    `idle ratio (watched / baseline): worker ×${(loaded.worker / Math.max(baseline.worker, 1e-6)).toFixed(2)}, server ×${(loaded.server / Math.max(baseline.server, 1e-6)).toFixed(2)}`,
  );

  async function seen(id: string, since: number, healthy: boolean): Promise<number> {
    for (let checked = 0; ;) {
      const fresh = changes.filter((c) => c.id === id && c.at >= since);
      if (fresh.length > checked) {
        checked = fresh.length;
        const res = await fetch(`${server.url}/v2/deployments/${id}/runtime_state`, { headers });
        const state = (await res.json()) as { healthy: boolean | null };
        if (state.healthy === healthy) return Date.now() - since;
      }
      if (Date.now() - since > 30_000)
        throw new Error(`deployment ${id} never turned healthy=${healthy}`);
      await sleep(5);
    }
  }

  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const target = deployments[(i * 7) % deployments.length]!;
    const broke = Date.now();
    kube.crashLoop(target.name);
    latencies.push(await seen(target.id, broke, false));
    const healed = Date.now();
    kube.heal(target.name);
    latencies.push(await seen(target.id, healed, true));
  }
  console.log(
    `change → dashboard (event stream + runtime_state read), ${latencies.length} changes: p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
  );
  stream.body?.cancel().catch(() => undefined);
} finally {
  await Promise.all([worker.stop(), server.stop()]);
  await kube.stop();
  await db.$disconnect();
  await database.drop();
}
