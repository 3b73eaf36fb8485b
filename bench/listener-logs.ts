// `npm run bench:listener-logs`: how much a listener adds to a runtime log read. Two deployments
// on the same cluster (the fake Kubernetes API), printing the same lines: one applied by Hangar's
// worker, whose deploy_logs Hangar reads from the cluster itself (the baseline), and one applied
// by a listener process, whose deploy_logs go Hangar → log request → listener → cluster → answer
// → Hangar (contract 14.3). BENCH_SAMPLES (default 60) reads of each, taking turns, `limit` 100
// newest first; p50 / p99 of each and the ratio listener / baseline.
import { createTestDatabase } from "../testing/database";
import { startFakeKubeApi } from "../testing/fake-kube-api";
import { startListenerProcess } from "../testing/listener";
import { startServer, startWorkerProcess, testSecrets } from "../testing/server";
import { ensurePostgres } from "../testing/services";
import { percentileOf } from "./http-load";
import { benchViewerKey, benchWorkspace } from "./workspace";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const LINES = Number(process.env.BENCH_LINES ?? 200);

process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
process.env.HANGAR_MODE = "self_hosted";
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");
const { createListener } = await import("../src/server/services/listeners/manage");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = percentileOf;

await ensurePostgres();
const database = await createTestDatabase("hangar_bench_listener_logs");
const db = createDb(database.url, 4);
const kube = await startFakeKubeApi();
const own = {
  DATABASE_URL: database.url,
  HANGAR_KUBECONFIG: kube.kubeconfig(),
  HANGAR_MODE: "self_hosted",
};
const worker = await startWorkerProcess({ ...own, HANGAR_QUEUE_POLL_SECONDS: "0.5" });
const server = await startServer({ ...own, HANGAR_RATELIMIT_ENABLED: "false" });
let listenerProcess: Awaited<ReturnType<typeof startListenerProcess>> | null = null;

try {
  const { ws, actor } = await benchWorkspace(db, `listener-logs-${Date.now()}`);
  const headers = await benchViewerKey(db, ws);
  const listener = await createListener(
    db,
    { ...actor, role: "admin" },
    { compute_type: "k8s", compute_id: "bench", compute_config: { k8s_namespaces: ["agents"] } },
  );
  listenerProcess = await startListenerProcess({
    HANGAR_URL: server.url,
    HANGAR_LISTENER_TOKEN: listener.token,
    KUBECONFIG: kube.kubeconfig(),
    HANGAR_ROLLOUT_POLL_SECONDS: "0.2",
  });
  const make = (name: string, sourceConfig: Record<string, unknown>) =>
    createDeployment(db, actor, {
      name,
      source: "external_container",
      source_config: sourceConfig,
      source_revision_config: { image_uri: `registry.example/${name}:1` },
    } as Parameters<typeof createDeployment>[2]);
  const direct = await make("direct", {});
  const remote = await make("remote", {
    listener_id: listener.id,
    listener_config: { k8s_namespace: "agents" },
  });
  for (const d of [direct, remote]) {
    for (let waited = 0; ; waited++) {
      const row = await db.deployment.findUniqueOrThrow({ where: { id: d.id } });
      if (row.status === "READY") break;
      if (waited > 600) throw new Error(`${row.name} never became READY (${row.status})`);
      await sleep(100);
    }
  }
  const lines = Array.from({ length: LINES }, (_, i) => `INFO request ${i} handled in 12 ms`);
  kube.printLog("direct", lines);
  kube.printLog("remote", lines);

  async function read(id: string): Promise<number> {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/projects/${id}/deploy_logs`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ limit: 100, order: "desc" }),
    });
    const body = (await res.json()) as { logs?: unknown[] };
    if (res.status !== 200 || body.logs?.length !== 100)
      throw new Error(`deploy_logs answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return performance.now() - started;
  }
  for (let i = 0; i < 5; i++) await Promise.all([read(direct.id), read(remote.id)]);
  const times = { direct: [] as number[], remote: [] as number[] };
  for (let i = 0; i < SAMPLES; i++) {
    times.direct.push(await read(direct.id));
    times.remote.push(await read(remote.id));
  }
  const line = (label: string, t: number[]) =>
    `${label}: p50 ${pct(t, 50).toFixed(1)} ms, p99 ${pct(t, 99).toFixed(1)} ms`;
  console.log(`${SAMPLES} reads each of the newest 100 of ${LINES} lines per container`);
  console.log(line("Hangar reads its cluster (baseline)", times.direct));
  console.log(line("through the listener", times.remote));
  console.log(
    `ratio listener / baseline: p50 ×${(pct(times.remote, 50) / pct(times.direct, 50)).toFixed(2)}, p99 ×${(pct(times.remote, 99) / pct(times.direct, 99)).toFixed(2)}`,
  );
} finally {
  await listenerProcess?.stop();
  await Promise.all([worker.stop(), server.stop()]);
  await kube.stop();
  await db.$disconnect();
  await database.drop();
}
