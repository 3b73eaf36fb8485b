// `npm run bench:list`: seeds 100,000 deployments in one workspace and measures GET
// /v2/deployments (filters, deep offsets) against a baseline route that returns a fixed JSON body
// of the same size, the two taking turns in rounds in the same run. Prints ratios (list /
// baseline), on the machine's PostgreSQL and on the embedded default, then the embedded
// default's throughput against the external one.
import os from "node:os";
import { generateApiKey } from "../src/server/auth/api-keys";
import { createDb } from "../src/server/db";
import { startServer } from "../testing/server";
import { buildIfStale } from "../scripts/build-if-stale";
import { selectedDatabases } from "./databases";
import { cpuMeter } from "./cpu";
import { describePauses, gcPauses, joinPauses, type GcPauses } from "./gc";
import { combine, load, loadAtRate, type LoadResult } from "./http-load";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 100_000);
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 400);
// BENCH_CONCURRENCY=8,32 measures every scenario at each (one table row per scenario and level).
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? "8").split(",").map(Number);
// A profile or a quick look needs only a few scenarios: BENCH_SCENARIOS=2 runs the first two.
const SCENARIOS = Number(process.env.BENCH_SCENARIOS ?? Infinity);
// List and baseline take turns in this many rounds per scenario: the machine's speed drifts
// within a run (other tenants of the host), and alternating gives both sides the same drift.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
// Requests per scenario before any is measured: V8 optimizes the hot paths only after some
// hundreds of requests, and the first scenario measured must not pay for that alone.
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 200);
// Latency at a given load: list and baseline are also sent requests at a fixed rate (open loop),
// this share of the list's own closed-loop throughput in the same scenario, both at one rate.
const RATE_SHARE = Number(process.env.BENCH_RATE_SHARE ?? 0.5);

/** ROUNDS rounds of list, then baseline (see ROUNDS); each side's results in order. */
async function alternate<T>(list: () => Promise<T>, base: () => Promise<T>) {
  const sides = { list: [] as T[], base: [] as T[] };
  for (let round = 0; round < ROUNDS; round++) {
    sides.list.push(await list());
    sides.base.push(await base());
  }
  return sides;
}

/** One workspace with COUNT deployments (a tenth remote, a tag on a tenth); a viewer key. */
async function seed(url: string) {
  const db = createDb(url, 2);
  try {
    const org = await db.organization.create({ data: { name: "bench" } });
    const ws = await db.workspace.create({ data: { organizationId: org.id, name: "bench" } });
    const key = generateApiKey();
    await db.apiKey.create({
      data: {
        organizationId: org.id,
        workspaceId: ws.id,
        name: "bench",
        kind: "service",
        role: "viewer",
        prefix: key.prefix,
        keyHash: key.hash,
      },
    });
    const tagKey = await db.tagKey.create({ data: { workspaceId: ws.id, key: "team" } });
    const tag = await db.tagValue.create({ data: { tagKeyId: tagKey.id, value: "payments" } });
    const seeded = performance.now();
    await db.$executeRawUnsafe(`
      INSERT INTO deployments (id, workspace_id, name, source, deployment_type, status, source_config, source_revision_config,
                               listener_id, image_version, created_at, updated_at)
      SELECT gen_random_uuid(), '${ws.id}', 'agent-' || g, 'internal_container',
             (ARRAY['dev_free','dev','prod'])[1 + g % 3]::"DeploymentType",
             (ARRAY['AWAITING_DATABASE','READY','READY','READY','UNUSED'])[1 + g % 5]::"DeploymentStatus",
             jsonb_build_object('deployment_type', (ARRAY['dev_free','dev','prod'])[1 + g % 3], 'custom_url', null),
             jsonb_build_object('image_uri', 'registry.example/agent:' || g),
             CASE WHEN g % 10 = 0 THEN gen_random_uuid() END, 'v' || (g % 50),
             now() - make_interval(secs => g), now()
      FROM generate_series(1, ${COUNT}) AS g`);
    await db.$executeRawUnsafe(`
      INSERT INTO deployment_tags (deployment_id, tag_value_id, tag_key_id)
      SELECT id, '${tag.id}', '${tagKey.id}' FROM deployments WHERE workspace_id = '${ws.id}' AND name LIKE '%7'`);
    await db.$executeRawUnsafe("VACUUM ANALYZE");
    console.log(
      `Seeded ${COUNT} deployments in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    return { key: key.key, tagId: tag.id };
  } finally {
    await db.$disconnect();
  }
}

interface Row {
  label: string;
  concurrency: number;
  bytes: number;
  list: Measured;
  base: Measured;
  /** Requests per second offered to both in the open-loop rounds, and what each answered. */
  rate: number;
  listAtRate: LoadResult;
  baseAtRate: LoadResult;
  /** The server's GC pauses during each side's rounds, closed and open loop. */
  listGc: GcPauses;
  baseGc: GcPauses;
}

type Measured = LoadResult & { serverMs: number; databaseMs: number };

async function measure(url: string): Promise<Row[]> {
  const { key, tagId } = await seed(url);
  const server = await startServer(
    {
      DATABASE_URL: url,
      HANGAR_BENCH: "true",
      HANGAR_RATELIMIT_ENABLED: "false",
    },
    // BENCH_CPU_PROF=DIR writes the server's V8 CPU profile there when it stops.
    [
      "--trace-gc",
      ...(process.env.BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
    ],
  );
  const headers = { "x-api-key": key };
  const probe = createDb(url, 1);
  /** A load, with the server's and the database's CPU seconds beside it. */
  const measured = async (target: string, opts: Parameters<typeof load>[1]) => {
    const stop = await cpuMeter(probe, [server.process.pid!]);
    const { result, gc } = await watchingGc(() => load(target, opts));
    return { result, gc, cpu: await stop() };
  };
  /** A load at a fixed rate, with the server's GC pauses meanwhile. */
  const atRate = (target: string, opts: Parameters<typeof loadAtRate>[1]) =>
    watchingGc(() => loadAtRate(target, opts));
  async function watchingGc(run: () => Promise<LoadResult>) {
    const from = server.output().length;
    const result = await run();
    return { result, gc: gcPauses(server.output().slice(from)) };
  }
  /** The rounds of one side as one measurement, CPU per request over all of them. */
  const together = (rounds: Awaited<ReturnType<typeof measured>>[]): Measured => {
    const result = combine(rounds.map((r) => r.result));
    const sum = (key: "processes" | "database") => rounds.reduce((t, r) => t + r.cpu[key], 0);
    return {
      ...result,
      serverMs: (sum("processes") * 1000) / result.requests,
      databaseMs: (sum("database") * 1000) / result.requests,
    };
  };
  const scenarios: [string, string][] = [
    ["first page (limit 20)", ""],
    ["limit 100", "limit=100"],
    ["status=READY", "status=READY"],
    ["deployment_type=prod", "deployment_type=prod"],
    ["name_contains=nt-999", "name_contains=nt-999"],
    ["image_version=v7", "image_version=v7"],
    ["tag_value_ids", `tag_value_ids=${tagId}`],
    ["remote_reconciled=true", "remote_reconciled=true"],
    ["offset 50,000", "offset=50000"],
    [`offset ${COUNT - 20}`, `offset=${COUNT - 20}`],
    [
      "combined filters, offset 200",
      `status=READY&deployment_type=dev&image_version=v1&offset=200`,
    ],
  ];
  const rows: Row[] = [];
  try {
    // Every scenario WARM_UP times before any is measured: the first one measured must not pay for the
    // server's cold start (modules loaded on first use, code not yet optimized) alone.
    for (const [, query] of scenarios.slice(0, SCENARIOS))
      await load(`${server.url}/v2/deployments?${query}`, {
        total: WARM_UP,
        concurrency: 4,
        headers,
      });
    await load(`${server.url}/bench/baseline?bytes=16384`, { total: WARM_UP, concurrency: 4 });
    for (const concurrency of CONCURRENCIES)
      for (const [label, query] of scenarios.slice(0, SCENARIOS)) {
        const listUrl = `${server.url}/v2/deployments?${query}`;
        const sized = await load(listUrl, { total: 20, concurrency: 2, headers }); // warm-up
        const bytes = Math.round(sized.bytes / sized.requests);
        const baseUrl = `${server.url}/bench/baseline?bytes=${bytes}`;
        await load(baseUrl, { total: 20, concurrency: 2 });
        const perRound = Math.ceil(TOTAL / ROUNDS);
        const closed = await alternate(
          () => measured(listUrl, { total: perRound, concurrency, headers }),
          () => measured(baseUrl, { total: perRound, concurrency }),
        );
        const list = together(closed.list);
        const base = together(closed.base);
        // The same number of requests again, due at a fixed rate, taking turns the same way.
        const rate = Math.max(1, Math.round(list.rps * RATE_SHARE));
        const open = await alternate(
          () => atRate(listUrl, { rate, total: perRound, concurrency, headers }),
          () => atRate(baseUrl, { rate, total: perRound, concurrency }),
        );
        const listAtRate = combine(open.list.map((r) => r.result));
        const baseAtRate = combine(open.base.map((r) => r.result));
        const listGc = joinPauses([...closed.list, ...open.list].map((r) => r.gc));
        const baseGc = joinPauses([...closed.base, ...open.base].map((r) => r.gc));
        for (const [side, result] of [
          ["list", list],
          ["list at a rate", listAtRate],
        ] as const)
          if (result.statuses[200] !== result.requests)
            throw new Error(`${label}, ${side}: ${JSON.stringify(result.statuses)}`);
        rows.push({
          label,
          concurrency,
          bytes,
          list,
          base,
          rate,
          listAtRate,
          baseAtRate,
          listGc,
          baseGc,
        });
        // As it goes, so a run cut short still shows what it measured.
        console.log(
          `${label} at ${concurrency}: ${list.rps.toFixed(0)} / ${base.rps.toFixed(0)} rps = ${(list.rps / base.rps).toFixed(2)}; ` +
            `server CPU ${list.serverMs.toFixed(2)} / ${base.serverMs.toFixed(2)} ms per request, database ${list.databaseMs.toFixed(2)}; ` +
            `at ${rate} rps p99 ${listAtRate.p99.toFixed(1)} / ${baseAtRate.p99.toFixed(1)} ms; ` +
            `server ${describePauses(listGc, list.requests + listAtRate.requests)} / ${describePauses(baseGc, base.requests + baseAtRate.requests)}`,
        );
      }
  } finally {
    await server.stop();
    await probe.$disconnect();
  }
  return rows;
}

function table(header: string[], rows: string[][]) {
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

buildIfStale();
const results: { label: string; rows: Row[] }[] = [];
for (const open of selectedDatabases("hangar_bench")) {
  const database = await open();
  try {
    console.log(`\n## ${database.label}`);
    const rows = await measure(database.url);
    results.push({ label: database.label, rows });
    console.log(
      `\nGET /v2/deployments over ${COUNT} deployments; ${TOTAL} requests per scenario in ${ROUNDS} rounds taking turns with the baseline, at ${CONCURRENCIES.join(" and ")} connections. ` +
        `Closed loop (each connection sends again when answered: throughput, and latency that is mostly queue), ` +
        `then open loop at ${RATE_SHARE} of the list's throughput offered to both (latency counted from when each request was due)\n`,
    );
    table(
      [
        "scenario",
        "connections",
        "bytes",
        "list rps",
        "baseline rps",
        "rps ratio",
        "list p50/p99 ms",
        "baseline p50/p99 ms",
        "p50 ratio",
        "server CPU ms/request list / baseline",
        "database CPU ms/request",
        "offered rps",
        "at that rate: list p50/p99 ms",
        "baseline p50/p99 ms",
      ],
      rows.map(({ label, concurrency, bytes, list, base, rate, listAtRate, baseAtRate }) => [
        label,
        String(concurrency),
        String(bytes),
        list.rps.toFixed(0),
        base.rps.toFixed(0),
        (list.rps / base.rps).toFixed(2),
        `${list.p50.toFixed(1)} / ${list.p99.toFixed(1)}`,
        `${base.p50.toFixed(1)} / ${base.p99.toFixed(1)}`,
        (list.p50 / base.p50).toFixed(2),
        `${list.serverMs.toFixed(2)} / ${base.serverMs.toFixed(2)}`,
        list.databaseMs.toFixed(2),
        String(rate),
        `${listAtRate.p50.toFixed(1)} / ${listAtRate.p99.toFixed(1)}`,
        `${baseAtRate.p50.toFixed(1)} / ${baseAtRate.p99.toFixed(1)}`,
      ]),
    );
    // What sets the tail: a GC pause holds every request in flight.
    const sum = (count: (row: Row) => number) => rows.reduce((t, row) => t + count(row), 0);
    const listGc = joinPauses(rows.map((r) => r.listGc));
    const baseGc = joinPauses(rows.map((r) => r.baseGc));
    console.log(
      `\nServer GC over all scenarios: list ${describePauses(
        listGc,
        sum((r) => r.list.requests + r.listAtRate.requests),
      )}; ` +
        `baseline ${describePauses(
          baseGc,
          sum((r) => r.base.requests + r.baseAtRate.requests),
        )}`,
    );
  } finally {
    await database.close();
  }
}
console.log(
  `\nmachine: ${os.cpus().length} cores, load average over the last 5 minutes at the end: ${os.loadavg()[1]!.toFixed(1)}` +
    " (other work on the machine slows list and baseline alike; the ratios are what compare)",
);
if (results.length === 2) {
  const [external, embedded] = results as [(typeof results)[0], (typeof results)[0]];
  console.log(`\n## ${embedded.label} against ${external.label} (list throughput, same run)\n`);
  table(
    ["scenario", "connections", `${external.label} rps`, `${embedded.label} rps`, "ratio"],
    external.rows.map((row, i) => {
      const other = embedded.rows[i]!;
      return [
        row.label,
        String(row.concurrency),
        row.list.rps.toFixed(0),
        other.list.rps.toFixed(0),
        (other.list.rps / row.list.rps).toFixed(2),
      ];
    }),
  );
}
