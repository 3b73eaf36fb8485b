// `npm run bench:health`: live health of BENCH_DEPLOYMENTS (default 200) deployments on a cluster
// (the fake Kubernetes API, testing/fake-kube-api.ts), through the real worker and server.
// 1. Idle CPU of the worker (its watch) and of the server (one dashboard's event stream open),
//    as % of one core over BENCH_IDLE_SECONDS (default 20): first with nothing deployed (the
//    baseline, same processes, same run), then with every deployment deployed and watched.
// 2. Change-to-dashboard latency: a deployment's pods start crash-looping (then recover); the
//    clock runs until the dashboard's path has it: the workspace's event stream (contract 5.5)
//    sent a `change` for it and a read of its runtime_state then says so. BENCH_SAMPLES (default
//    40) changes, p50 / p99 / max.
// 3. The dashboard in Chromium (issue 34), BENCH_PAGE_SAMPLES (default 20) each, p50 / p99 / max:
//    the overview's health (a deployment's pods crash-loop, then recover; the clock runs until
//    its overview page, open, shows it in the header badge and the Running field) and the Logs
//    tab's first lines (navigation until the first line's row shows; its pods printed lines).
//    BENCH_BEFORE_DIR: a built checkout of older code (e.g. a worktree before issue 34's
//    dashboard work); its server runs on the same database and cluster beside this one's, the
//    pages of both are timed alike (the same changes, seen by both at once; navigations taking
//    turns), and the ratios after/before are printed. The worker (the health watch) is this
//    checkout's for both.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { buildIfStale } from "../scripts/build-if-stale";
import { createTestDatabase } from "../testing/database";
import { startFakeKubeApi } from "../testing/fake-kube-api";
import { startServer, startWorkerProcess, testSecrets } from "../testing/server";
import { ensurePostgres } from "../testing/services";
import { cpuMeter } from "./cpu";
import {
  benchViewer,
  launchBenchBrowser,
  openOverview,
  overviewShows,
  timeToFirstLogLine,
  type Health,
} from "./health-pages";
import { percentileOf } from "./http-load";
import { signedInPage } from "./signed-in-page";
import { benchViewerKey, benchWorkspace } from "./workspace";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 200);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const PAGE_SAMPLES = Number(process.env.BENCH_PAGE_SAMPLES ?? 20);
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR;

process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
const { createDb } = await import("../src/server/db");
const { createDeployment } = await import("../src/server/services/deployments/create");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = percentileOf;

buildIfStale();
await ensurePostgres();
const database = await createTestDatabase("hangar_bench_health");
const db = createDb(database.url, 4);
const kube = await startFakeKubeApi();
const own = { DATABASE_URL: database.url, HANGAR_KUBECONFIG: kube.kubeconfig() };
// A shared 2-core machine under load can take more than the default 24 s to start it.
const worker = await startWorkerProcess(
  { ...own, HANGAR_QUEUE_POLL_SECONDS: "2", HANGAR_WORKER_CONCURRENCY: "4" },
  { startTimeoutMs: 120_000 },
);
const server = await startServer({ ...own, HANGAR_RATELIMIT_ENABLED: "false" });
let before: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Awaited<ReturnType<typeof launchBenchBrowser>> | undefined;

try {
  const { ws, actor } = await benchWorkspace(db, `health-${Date.now()}`);
  const headers = await benchViewerKey(db, ws);

  // The dashboard's event stream: every change of the workspace, as it arrives.
  const changes: { id: string; at: number }[] = [];
  // Aborted at the end: a cancelled body alone left the connection open, and the server's
  // graceful stop waited on it.
  const streamAbort = new AbortController();
  const stream = await fetch(`${server.url}/v2/deployments/events`, {
    headers,
    signal: streamAbort.signal,
  });
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
  streamAbort.abort();

  // The dashboard in Chromium: this checkout's server, and the older code's beside it.
  const sides = [{ label: "after (this checkout)", url: server.url }];
  if (BEFORE_DIR) {
    before = await startServer({ ...own, HANGAR_RATELIMIT_ENABLED: "false" }, [], {
      cwd: BEFORE_DIR,
    });
    const commit = execFileSync("git", ["-C", BEFORE_DIR, "rev-parse", "--short", "HEAD"]);
    sides.unshift({ label: `before (${commit.toString().trim()})`, url: before.url });
  }
  browser = await launchBenchBrowser();
  const email = await benchViewer(db, ws);
  const pages = [];
  for (const side of sides) pages.push(await signedInPage(browser, side.url, email));

  const overview = sides.map(() => [] as number[]);
  for (let i = 0; i < PAGE_SAMPLES; i++) {
    const target = deployments[(i * 11 + 5) % deployments.length]!;
    await Promise.all(pages.map((page) => openOverview(page, target.id, "healthy")));
    for (const want of ["unhealthy", "healthy"] as Health[]) {
      // Every open page watches the same change.
      const shown = pages.map((page) => overviewShows(page, want).then(() => Date.now()));
      const changed = Date.now();
      if (want === "unhealthy") kube.crashLoop(target.name);
      else kube.heal(target.name);
      (await Promise.all(shown)).forEach((at, k) => overview[k]!.push(at - changed));
    }
  }

  const logs = sides.map(() => [] as number[]);
  for (let i = -2; i < PAGE_SAMPLES; i++) {
    const target = deployments[((i + 2) * 13 + 1) % deployments.length]!;
    kube.printLog(
      target.name,
      Array.from({ length: 20 }, (_, n) => `INFO handled request ${n} of sample ${i}`),
    );
    // Taking turns: neither side always goes first; two rounds of warm-up.
    for (const k of i % 2 ? pages.keys() : [...pages.keys()].reverse()) {
      const ms = await timeToFirstLogLine(pages[k]!, target.id);
      if (i >= 0) logs[k]!.push(ms);
    }
  }

  const cell = (t: number[]) =>
    `${pct(t, 50).toFixed(0)} / ${pct(t, 99).toFixed(0)} / ${Math.max(...t).toFixed(0)}`;
  const ratio = (after: number[], was: number[]) =>
    `×${(pct(after, 50) / pct(was, 50)).toFixed(2)} / ×${(pct(after, 99) / pct(was, 99)).toFixed(2)}`;
  console.log(`\nThe dashboard in Chromium, ${COUNT} deployments watched: p50 / p99 / max ms\n`);
  console.log(
    `| measure | ${sides.map((s) => s.label).join(" | ")}${BEFORE_DIR ? " | after/before p50 / p99" : ""} |`,
  );
  console.log(`|---|${sides.map(() => "---|").join("")}${BEFORE_DIR ? "---|" : ""}`);
  for (const [label, times] of [
    [`overview shows a change (${overview[0]!.length} changes)`, overview],
    [`Logs tab, first line (${logs[0]!.length} navigations)`, logs],
  ] as const)
    console.log(
      `| ${label} | ${times.map(cell).join(" | ")}${BEFORE_DIR ? ` | ${ratio(times[1]!, times[0]!)}` : ""} |`,
    );
} finally {
  await browser?.close();
  await before?.stop();
  await Promise.all([worker.stop(), server.stop()]);
  await kube.stop();
  await db.$disconnect();
  await database.drop();
}
