// `npm run bench:soak`: `npm start` on the embedded default (a fresh data folder), then a bounded
// mixed load for a few minutes: deployment lists, creates, patches (each a new revision the
// worker runs), revision log reads and the bare baseline route, over BENCH_SOAK_CONCURRENCY
// connections, with BENCH_SOAK_STREAMS live event streams open throughout. Prints the errors
// (goal: 0), each operation's p99 against the baseline's p99 measured in the same run (the two
// share the connections and the drift of the machine), and the memory (RSS) of the web server,
// the worker and the embedded PostgreSQL after the warm-up and at the end (goal: growth < 10 %).
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Agent } from "node:http";
import { buildIfStale } from "../scripts/build-if-stale";
import { LAUNCHER_KEY, launchHangar, newDataDir } from "../tests/helpers/launcher";
import { sendRequest, summary } from "./http-load";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
const WARM_UP_SECONDS = Number(process.env.BENCH_SOAK_WARM_UP_SECONDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_SOAK_CONCURRENCY ?? 8);
const STREAMS = Number(process.env.BENCH_SOAK_STREAMS ?? 4);
/** Creates stop at this many deployments (then a create's turn patches): the load is bounded. */
const MAX_DEPLOYMENTS = Number(process.env.BENCH_SOAK_DEPLOYMENTS ?? 300);

type Op = "list" | "create" | "patch" | "logs" | "baseline";
/** Each connection's next operation, by weight. */
const MIX: [Op, number][] = [
  ["list", 35],
  ["create", 10],
  ["patch", 15],
  ["logs", 20],
  ["baseline", 20],
];
const EXPECTED: Record<Op, number> = {
  list: 200,
  create: 201,
  patch: 200,
  logs: 200,
  baseline: 200,
};

function pick(): Op {
  let roll = Math.random() * MIX.reduce((t, [, w]) => t + w, 0);
  for (const [op, weight] of MIX) if ((roll -= weight) < 0) return op;
  return "list";
}

/** RSS in MiB of every process below `root`, grouped as web server, worker and database. */
function memory(root: number): Record<string, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const below = (pid: number): boolean =>
    pid === root || (parents.has(pid) && pid > 1 && below(parents.get(pid)!));
  const groups: Record<string, number> = { "web server": 0, worker: 0, "embedded PostgreSQL": 0 };
  for (const pid of parents.keys()) {
    if (pid === root || !below(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      // Next.js renames its process (process.title rewrites the command line): next-server.
      const group = /node_modules\/next|next-server/.test(cmdline)
        ? "web server"
        : cmdline.includes("scripts/worker.ts")
          ? "worker"
          : /postgres/.test(cmdline)
            ? "embedded PostgreSQL"
            : undefined;
      if (group && rss) groups[group] = (groups[group] ?? 0) + Number(rss) / 1024;
    } catch {
      // exited meanwhile
    }
  }
  return groups;
}

// Built first: the launcher's wait for readiness is not meant for a build.
buildIfStale();
const dataDir = await newDataDir();
console.log(`Starting npm start on the embedded default in ${dataDir} ...`);
const hangar = await launchHangar(dataDir, {
  // Rate limits off: one key's load would meet its own limit (bench/ratelimit.ts measures those).
  env: { HANGAR_BENCH: "true", HANGAR_RATELIMIT_ENABLED: "false" },
});
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const headers = { "x-api-key": LAUNCHER_KEY };
const run = Date.now().toString(36);
const deployments: { id: string; revisionId: string }[] = [];
let made = 0;
let patches = 0;

const latencies: Record<Op, number[]> = {
  list: [],
  create: [],
  patch: [],
  logs: [],
  baseline: [],
};
const statuses: Record<Op, Record<number, number>> = {
  list: {},
  create: {},
  patch: {},
  logs: {},
  baseline: {},
};
const errors: string[] = [];
let baselineBytes = 2048;
let measuring = false;

async function once(op: Op): Promise<void> {
  if (op === "create" && made >= MAX_DEPLOYMENTS) op = "patch";
  if ((op === "patch" || op === "logs") && deployments.length === 0) op = "create";
  const target = deployments[Math.floor(Math.random() * deployments.length)];
  const [path, method, json] = ((): [string, string, unknown?] => {
    switch (op) {
      case "list":
        return ["/v2/deployments?limit=20", "GET"];
      case "baseline":
        return [`/bench/baseline?bytes=${baselineBytes}`, "GET"];
      case "create":
        made++;
        return [
          "/v2/deployments",
          "POST",
          {
            name: `soak-${run}-${made}`,
            source: "internal_container",
            source_config: {},
            source_revision_config: { image_uri: "registry.example/agent:1" },
            secrets: [{ name: "API_TOKEN", value: `secret-${made}` }],
          },
        ];
      case "patch":
        return [
          `/v2/deployments/${target!.id}`,
          "PATCH",
          { source_revision_config: { image_uri: `registry.example/agent:${++patches}` } },
        ];
      case "logs":
        return [`/v2/deployments/${target!.id}/revisions/${target!.revisionId}/logs`, "GET"];
    }
  })();
  const at = performance.now();
  try {
    const answer = await sendRequest(`${hangar.url}${path}`, agent, { method, headers, json });
    const ms = performance.now() - at;
    if (measuring) {
      latencies[op].push(ms);
      statuses[op][answer.status] = (statuses[op][answer.status] ?? 0) + 1;
    }
    if (answer.status !== EXPECTED[op])
      errors.push(`${op} ${method} ${path} -> ${answer.status} ${answer.body.slice(0, 200)}`);
    else if (op === "create" || op === "patch") {
      const body = JSON.parse(answer.body) as { id: string; latest_revision_id: string };
      if (op === "create") deployments.push({ id: body.id, revisionId: body.latest_revision_id });
      else target!.revisionId = body.latest_revision_id;
    } else if (op === "list") baselineBytes = answer.bytes;
  } catch (error) {
    errors.push(`${op} ${method} ${path} -> ${(error as Error).message}`);
  }
}

/** A live event stream until `until`, counting `change` events; an early end is an error. */
async function stream(until: number, counts: { changes: number }) {
  while (Date.now() < until) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), until - Date.now());
    try {
      const res = await fetch(`${hangar.url}/v2/deployments/events`, {
        headers,
        signal: controller.signal,
      });
      if (res.status !== 200) errors.push(`events -> ${res.status}`);
      const decoder = new TextDecoder();
      for await (const chunk of res.body!)
        counts.changes += decoder.decode(chunk).split("event: change").length - 1;
      if (Date.now() < until) errors.push("events: the stream ended early");
    } catch (error) {
      if (!controller.signal.aborted) errors.push(`events -> ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const launcherPid = hangar.process.pid!;
const started = Date.now();
const warmUntil = started + WARM_UP_SECONDS * 1000;
const until = warmUntil + SECONDS * 1000;
const events = { changes: 0 };
const streams = Array.from({ length: STREAMS }, () => stream(until, events));
let rssStart: Record<string, number> = {};
const peak: Record<string, number> = {};
/** The web server's RSS every 30 s of the soak: a plateau or a trend. */
const series: number[] = [];
let ticks = 0;
const sampler = setInterval(() => {
  const now = memory(launcherPid);
  for (const [group, mb] of Object.entries(now)) peak[group] = Math.max(peak[group] ?? 0, mb);
  if (measuring && ticks++ % 6 === 0) series.push(Math.round(now["web server"] ?? 0));
}, 5000);
const warmUp = (async () => {
  await new Promise((r) => setTimeout(r, WARM_UP_SECONDS * 1000));
  rssStart = memory(launcherPid);
  errors.length = 0; // counted from here, as the latencies are
  measuring = true;
  console.log(`Warmed up for ${WARM_UP_SECONDS} s; soaking for ${SECONDS} s ...`);
})();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < until) await once(pick());
  }),
);
await warmUp;
const rssEnd = memory(launcherPid);
await Promise.all(streams);
clearInterval(sampler);
agent.destroy();

const seconds = (Date.now() - warmUntil) / 1000;
const base = summary([...latencies.baseline], seconds, statuses.baseline, 0);
console.log(
  `\nSoak: ${SECONDS} s after ${WARM_UP_SECONDS} s warm-up, ${CONCURRENCY} connections, ` +
    `${STREAMS} event streams, ${made} deployments created (cap ${MAX_DEPLOYMENTS})\n`,
);
console.log("| operation | requests | p50 ms | p99 ms | p99 / baseline p99 | statuses |");
console.log("|---|---|---|---|---|---|");
let total = 0;
for (const [op] of MIX) {
  const r = summary([...latencies[op]], seconds, statuses[op], 0);
  total += r.requests;
  console.log(
    `| ${op} | ${r.requests} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ` +
      `${(r.p99 / base.p99).toFixed(2)} | ${JSON.stringify(r.statuses)} |`,
  );
}
console.log(
  `\n${total} requests, ${(total / seconds).toFixed(1)}/s; ${events.changes} change events`,
);
console.log(`Errors: ${errors.length}`);
for (const line of errors.slice(0, 20)) console.log(`  ${line}`);
const serverErrors = hangar
  .output()
  .split("\n")
  .filter((line) => line.includes('"level":"error"'));
console.log(`Server error log lines: ${serverErrors.length}`);
for (const line of serverErrors.slice(0, 5)) console.log(`  ${line.slice(0, 600)}`);
console.log("\n| process | RSS after warm-up MiB | RSS at end MiB | growth | peak MiB |");
console.log("|---|---|---|---|---|");
for (const group of Object.keys(rssEnd)) {
  const [from, to] = [rssStart[group] ?? 0, rssEnd[group]!];
  const growth = from ? `${(((to - from) / from) * 100).toFixed(1)} %` : "-";
  console.log(
    `| ${group} | ${from.toFixed(0)} | ${to.toFixed(0)} | ${growth} | ${(peak[group] ?? to).toFixed(0)} |`,
  );
}

console.log(
  `\nWeb server RSS every 30 s (MiB): ${series.join(", ")}, end ${rssEnd["web server"]?.toFixed(0)}`,
);

await hangar.signal("SIGTERM");
await rm(dataDir, { recursive: true, force: true });
process.exit(errors.length ? 1 : 0);
