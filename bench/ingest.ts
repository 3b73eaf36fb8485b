// `npm run bench:ingest` (issue 33): the tracing store's speed against PostgreSQL's own limit,
// measured in the same run on the same database.
//
// 1. Runs/s through POST /api/v1/runs/multipart, bodies exactly as the tracing SDK builds them
//    (parts `post.<id>` and `post.<id>.inputs|outputs|extra`, as many runs a body as GET /info's
//    size_limit tells the SDK, or BENCH_PER_BODY; BENCH_CONCURRENCY bodies in flight), against the
//    same rows COPY'd straight into the runs table in batches of the same size on as many
//    connections. Ratio: Hangar ÷ COPY (goal ≥ 0.5).
// 2. Spans/s through POST /api/v1/otel/v1/traces, OTLP protobuf made by OpenTelemetry's own
//    serializer, 500 spans an export, against COPY of the rows those spans become. Ratio as above.
// 3. Run query p99 on a project of BENCH_QUERY_RUNS (default 1,000,000) runs: POST /runs/query
//    (the newest page, a filtered page, a deep cursor page) against the bare SQL the store sends
//    for it, run over a plain connection. Ratio: bare p99 ÷ Hangar p99 (goal ≥ 0.5).
// 4. Memory: the server's resident memory sampled while multipart ingest runs for
//    BENCH_SOAK_SECONDS (default 300): first minute's mean against the last minute's.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { context, trace } from "@opentelemetry/api";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { buildIfStale } from "../scripts/build-if-stale";
import { createTestDatabase } from "../testing/database";
import { startServer, testSecrets } from "../testing/server";
import { ensurePostgres } from "../testing/services";
import { percentileOf } from "./http-load";
import { benchKey, benchWorkspace } from "./workspace";

const RUNS = Number(process.env.BENCH_RUNS ?? 20_000);
const SPANS = Number(process.env.BENCH_SPANS ?? 20_000);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
/** Spans per OTLP export: the OpenTelemetry BatchSpanProcessor sends up to 512 (its default). */
const SPANS_PER_EXPORT = 500;

process.env.HANGAR_ENCRYPTION_KEY ??= testSecrets.HANGAR_ENCRYPTION_KEY;
const { createDb } = await import("../src/server/db");
const { ensureRunPartitions } = await import("../src/server/services/tracing/partitions");
const { findRunsJsonSql } = await import("../src/server/services/tracing/run-store-json");
const { createProject } = await import("../src/server/services/tracing/projects");

buildIfStale();
await ensurePostgres();
const database = await createTestDatabase("hangar_bench_ingest");
const db = createDb(database.url, 4);
// BENCH_PROF=<folder>: the server writes a CPU profile there when it stops.
const server = await startServer(
  { DATABASE_URL: database.url, HANGAR_RATELIMIT_ENABLED: "false" },
  process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [],
);
const pool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY + 1 });
/** Runs per multipart body: what GET /info tells the SDK (size_limit), whole traces of five. */
const info = (await (await fetch(`${server.url}/api/v1/info`)).json()) as {
  batch_ingest_config: { size_limit: number };
};
const PER_BODY =
  Number(process.env.BENCH_PER_BODY ?? 0) ||
  Math.floor(info.batch_ingest_config.size_limit / 5) * 5;

// ---- what the SDK sends -------------------------------------------------------------------

/** `YYYYMMDDTHHMMSSffffff` of a time, as dotted_order segments carry it. */
function stamp(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20, 23)}${String(micros).padStart(3, "0")}`;
}

interface Run {
  id: string;
  name: string;
  run_type: string;
  start_time: number;
  end_time: number;
  trace_id: string;
  parent_run_id?: string;
  dotted_order: string;
  session_name: string;
  tags: string[];
  error?: string;
  inputs: unknown;
  outputs: unknown;
  extra: unknown;
}

/** One agent trace of five runs (a chain, a model call with tokens, a retriever, a tool, a parser). */
function traceOf(project: string, at: number, failed: boolean): Run[] {
  const rootId = randomUUID();
  const root: Run = {
    id: rootId,
    name: "agent",
    run_type: "chain",
    start_time: at,
    end_time: at + 900,
    trace_id: rootId,
    dotted_order: `${stamp(at, 0)}Z${rootId}`,
    session_name: project,
    tags: ["bench", "agent"],
    inputs: { messages: [{ role: "user", content: "What is the weather in Lisbon today?" }] },
    outputs: { answer: "Sunny, 24 °C, light wind from the north-west." },
    extra: { metadata: { user: "ada", ls_run_depth: 0 }, runtime: { sdk: "langsmith-js" } },
  };
  const child = (name: string, runType: string, offset: number, more: Partial<Run>): Run => {
    const id = randomUUID();
    return {
      id,
      name,
      run_type: runType,
      start_time: at + offset,
      end_time: at + offset + 150,
      trace_id: rootId,
      parent_run_id: rootId,
      dotted_order: `${root.dotted_order}.${stamp(at + offset, 0)}Z${id}`,
      session_name: project,
      tags: ["bench"],
      inputs: { query: "weather Lisbon" },
      outputs: { result: "ok" },
      extra: { metadata: { ls_run_depth: 1 } },
      ...more,
    };
  };
  return [
    root,
    child("ChatOpenAI", "llm", 10, {
      inputs: { messages: [{ role: "user", content: "What is the weather in Lisbon today?" }] },
      outputs: {
        generations: [{ text: "Let me look that up." }],
        usage_metadata: { input_tokens: 42, output_tokens: 11, total_tokens: 53 },
      },
      extra: { metadata: { ls_model_name: "gpt-4o-mini", ls_provider: "openai" } },
    }),
    child("search", "retriever", 200, { outputs: { documents: ["Lisbon: sunny, 24 °C"] } }),
    child("weather", "tool", 400, failed ? { error: "TimeoutError: upstream took 30 s" } : {}),
    child("parse", "parser", 700, {}),
  ];
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A multipart body as the SDK builds it (langsmith lib/client.js _serializeRunParts). */
async function multipartBody(runs: Run[]): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const run of runs) {
    const { inputs, outputs, extra, error, ...rest } = run;
    const fields = { inputs, outputs, extra, error };
    const main = json(rest);
    form.append(
      `post.${run.id}`,
      new Blob([main], { type: `application/json; length=${main.length}` }),
    );
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const data = json(value);
      form.append(
        `post.${run.id}.${key}`,
        new Blob([data], { type: `application/json; length=${data.length}` }),
      );
    }
  }
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get("content-type")!,
  };
}

// ---- COPY, the limit ----------------------------------------------------------------------

const COLUMNS = [
  "id",
  "sort_time",
  "workspace_id",
  "project_id",
  "trace_id",
  "parent_run_id",
  "dotted_order",
  "name",
  "run_type",
  "start_time",
  "end_time",
  "error",
  "inputs",
  "outputs",
  "extra",
  "tags",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "posted",
];

/** COPY text format: backslash, tab and newlines escaped; null as \N. */
const field = (value: unknown): string => {
  if (value === null || value === undefined) return "\\N";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text
    .replace(/\\/g, "\\\\")
    .replace(/\t/g, "\\t")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
};
const iso = (ms: number) => new Date(ms).toISOString();

/** The row a run becomes, in COLUMNS order (its time is its own dotted_order segment's). */
function rowOf(run: Run, workspaceId: string, projectId: string): string {
  const usage = (run.outputs as { usage_metadata?: Record<string, number> })?.usage_metadata;
  return [
    run.id,
    iso(run.start_time),
    workspaceId,
    projectId,
    run.trace_id,
    run.parent_run_id ?? null,
    run.dotted_order,
    run.name,
    run.run_type,
    iso(run.start_time),
    iso(run.end_time),
    run.error ?? null,
    run.inputs,
    run.outputs,
    run.extra,
    `{${run.tags.join(",")}}`,
    usage?.input_tokens ?? null,
    usage?.output_tokens ?? null,
    usage?.total_tokens ?? null,
    "t",
  ]
    .map(field)
    .join("\t");
}

async function copyRows(lines: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await pipeline(
      Readable.from([lines.join("\n") + "\n"]),
      client.query(
        copyFrom(`COPY "tracing_runs" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) FROM STDIN`),
      ),
    );
  } finally {
    client.release();
  }
}

/** Runs `work` on each item, `concurrency` at a time; seconds taken. */
async function inFlight<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * A connection the server closed while idle (its keep-alive timeout, 5 s) can be picked for the
 * next request on a busy machine, before the client's own timer drops it: that request is sent
 * again once (ingest is idempotent), not counted as a failure of the route.
 */
async function postOnce(path: string, headers: Record<string, string>, body: Buffer) {
  const send = () =>
    fetch(`${server.url}/api/v1${path}`, { method: "POST", headers, body: new Uint8Array(body) });
  return send().catch((error: { cause?: { code?: string } }) => {
    if (error.cause?.code !== "UND_ERR_SOCKET") throw error;
    return send();
  });
}

async function post(path: string, headers: Record<string, string>, body: Buffer) {
  const res = await postOnce(path, headers, body);
  const text = await res.text();
  if (res.status !== 202 && res.status !== 200)
    throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** The server's CPU time so far (user + system, ms): what a request costs on a busy machine too. */
function serverCpuMs(): number {
  const stat = readFileSync(`/proc/${server.process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

const residentKiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

try {
  const { ws, actor } = await benchWorkspace(db, `ingest-${Date.now()}`);
  const project = async (name: string) => (await createProject(db, actor, { name }, false)).project;
  const key = await benchKey(db, ws, "editor");
  const now = Date.now();
  // COPY goes around the services: the days it writes need their partitions first.
  await ensureRunPartitions(
    db,
    Array.from({ length: 9 }, (_, d) => new Date(now - d * 86_400_000)),
  );

  // 1. Multipart runs/s against COPY.
  const traces = Math.ceil(RUNS / 5);
  const sent = Array.from({ length: traces }, (_, i) =>
    traceOf("bench-multipart", now - 60_000 + (i % 1000), i % 10 === 0),
  ).flat();
  const bodies = [];
  for (let i = 0; i < sent.length; i += PER_BODY)
    bodies.push(await multipartBody(sent.slice(i, i + PER_BODY)));
  console.log(`load average at the start: ${load()} (${availableParallelism()} cores)`);
  // The route's first request loads its code: sent once before the clock (posting it again
  // in the timed run stores nothing new).
  await post("/runs/multipart", { ...key, "content-type": bodies[0]!.type }, bodies[0]!.body);
  let cpuBefore = serverCpuMs();
  const multipartSeconds = await inFlight(bodies, CONCURRENCY, async (b) => {
    await post("/runs/multipart", { ...key, "content-type": b.type }, b.body);
  });
  const multipartCpu = serverCpuMs() - cpuBefore;
  const stored = await pool.query(
    `SELECT count(*)::int AS n FROM tracing_runs WHERE workspace_id = $1`,
    [ws.id],
  );
  if (stored.rows[0].n !== sent.length)
    throw new Error(`multipart stored ${stored.rows[0].n} of ${sent.length} runs`);

  const copyProject = await project("bench-copy");
  const copyBatches = [];
  for (let i = 0; i < sent.length; i += PER_BODY) {
    const again = Array.from({ length: PER_BODY / 5 }, (_, j) =>
      traceOf("bench-copy", now - 60_000 + ((i + j) % 1000), (i / 5 + j) % 10 === 0),
    ).flat();
    copyBatches.push(again.map((r) => rowOf(r, ws.id, copyProject.id)));
  }
  const copySeconds = await inFlight(copyBatches, CONCURRENCY, copyRows);
  const multipartRate = sent.length / multipartSeconds;
  const copyRate = sent.length / copySeconds;
  console.log(
    `multipart ingest: ${fmt(multipartRate)} runs/s (${sent.length} runs in ${multipartSeconds.toFixed(1)} s) · COPY ${fmt(copyRate)} runs/s · ratio ${(multipartRate / copyRate).toFixed(2)}× · server CPU ${((multipartCpu / sent.length) * 1000).toFixed(0)} µs per run`,
  );

  // 2. OTLP protobuf spans/s against COPY.
  const exportBodies: Buffer[] = [];
  for (let made = 0; made < SPANS; made += SPANS_PER_EXPORT) {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "bench-agent" }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer("bench", "1.0.0");
    for (let t = 0; t < SPANS_PER_EXPORT / 5; t++) {
      const root = tracer.startSpan("agent", { attributes: { "app.user": "ada" } });
      const inRoot = trace.setSpan(context.active(), root);
      const llm = tracer.startSpan(
        "chat gpt-4o-mini",
        {
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.usage.input_tokens": 42,
            "gen_ai.usage.output_tokens": 11,
            "gen_ai.prompt": JSON.stringify([{ role: "user", content: "Weather in Lisbon?" }]),
            "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "Sunny." }]),
          },
        },
        inRoot,
      );
      llm.end();
      for (const name of ["search", "weather", "parse"])
        tracer.startSpan(name, { attributes: { "tool.name": name } }, inRoot).end();
      root.end();
    }
    exportBodies.push(
      Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!),
    );
    await provider.shutdown();
  }
  const spans = exportBodies.length * SPANS_PER_EXPORT;
  const otelHeaders = {
    ...key,
    "content-type": "application/x-protobuf",
    "langsmith-project": "bench-otel",
  };
  await post("/otel/v1/traces", otelHeaders, exportBodies[0]!);
  cpuBefore = serverCpuMs();
  const otelSeconds = await inFlight(exportBodies, CONCURRENCY, async (body) => {
    await post("/otel/v1/traces", otelHeaders, body);
  });
  const otelCpu = serverCpuMs() - cpuBefore;
  const otelStored = await pool.query(
    `SELECT count(*)::int AS n FROM tracing_runs r JOIN tracing_projects p ON p.id = r.project_id
      WHERE p.workspace_id = $1 AND p.name = 'bench-otel'`,
    [ws.id],
  );
  if (otelStored.rows[0].n !== spans)
    throw new Error(`OTLP stored ${otelStored.rows[0].n} of ${spans} spans`);
  const otelCopyProject = await project("bench-otel-copy");
  const otelCopy = [];
  for (let i = 0; i < spans; i += SPANS_PER_EXPORT)
    otelCopy.push(
      Array.from({ length: SPANS_PER_EXPORT / 5 }, () => traceOf("x", now - 30_000, false))
        .flat()
        .map((r) => rowOf(r, ws.id, otelCopyProject.id)),
    );
  const otelCopySeconds = await inFlight(otelCopy, CONCURRENCY, copyRows);
  const spanRate = spans / otelSeconds;
  const otelCopyRate = spans / otelCopySeconds;
  console.log(
    `OTLP protobuf ingest: ${fmt(spanRate)} spans/s (${spans} spans in ${otelSeconds.toFixed(1)} s) · COPY ${fmt(otelCopyRate)} rows/s · ratio ${(spanRate / otelCopyRate).toFixed(2)}× · server CPU ${((otelCpu / spans) * 1000).toFixed(0)} µs per span`,
  );

  // 3. Query p99 on a project of QUERY_RUNS runs, spread over the last 7 days.
  const big = await project("bench-query");
  const seedStarted = performance.now();
  const span = 7 * 86_400_000;
  const seedBatches: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i += 10_000) seedBatches.push(i);
  await inFlight(seedBatches, 2, async (from) => {
    const lines: string[] = [];
    for (let i = from; i < Math.min(from + 10_000, QUERY_RUNS); i += 5) {
      const at = now - 3_600_000 - Math.floor((i / QUERY_RUNS) * span);
      for (const r of traceOf("bench-query", at, i % 50 === 0)) lines.push(rowOf(r, ws.id, big.id));
    }
    await copyRows(lines);
  });
  await pool.query(`ANALYZE "tracing_runs"`);
  console.log(
    `query project: ${fmt(QUERY_RUNS)} runs seeded by COPY in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
  );

  const query = (body: unknown) =>
    postOnce(
      "/runs/query",
      { ...key, "content-type": "application/json" },
      Buffer.from(JSON.stringify(body)),
    );
  const first = (await (await query({ session: [big.id], limit: 100 })).json()) as {
    cursors: { next: string };
  };
  // A deep page: a cursor 3 days back (keyset paging costs the same at any depth).
  const deep = Buffer.from(
    JSON.stringify([
      new Date(now - 3 * 86_400_000).toISOString(),
      "ffffffff-ffff-7fff-bfff-ffffffffffff",
    ]),
  ).toString("base64url");
  const cases = [
    { label: "newest 100", body: { session: [big.id], limit: 100 }, filter: {} },
    {
      label: "errors, root runs",
      body: { session: [big.id], limit: 100, error: true, is_root: false },
      filter: { error: true, isRoot: false },
    },
    {
      label: "next page",
      body: { session: [big.id], limit: 100, cursor: first.cursors.next },
      filter: { after: JSON.parse(Buffer.from(first.cursors.next, "base64url").toString()) },
    },
    {
      label: "page 3 days back",
      body: { session: [big.id], limit: 100, cursor: deep },
      filter: { after: JSON.parse(Buffer.from(deep, "base64url").toString()) },
    },
  ];
  // The door alone: a route that reads nothing (Next's routing, the proxy, the route wrapper).
  const door: number[] = [];
  await (await fetch(`${server.url}/api/v1/info`, { headers: key })).arrayBuffer(); // loads the route
  const doorCpuBefore = serverCpuMs();
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1/info`, { headers: key });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/v1/info answered ${res.status}`);
    door.push(performance.now() - started);
  }
  console.log(
    `the door (GET /api/v1/info): p50 ${percentileOf(door, 50).toFixed(1)} ms p99 ${percentileOf(door, 99).toFixed(1)} ms · server CPU ${((serverCpuMs() - doorCpuBefore) / SAMPLES).toFixed(1)} ms per request`,
  );
  for (const c of cases) {
    const after = (c.filter as { after?: [string, string] }).after;
    const sql = findRunsJsonSql({
      workspaceId: ws.id,
      projectIds: [big.id],
      order: "desc",
      limit: 101,
      ...c.filter,
      after: after ? { time: after[0], id: after[1] } : undefined,
    });
    if (process.env.BENCH_EXPLAIN) {
      const plan = await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`,
        sql.values as unknown[],
      );
      console.log(plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
    }
    const hangar: number[] = [];
    const bare: number[] = [];
    const queryCpuBefore = serverCpuMs();
    for (let i = 0; i < SAMPLES; i++) {
      let started = performance.now();
      const res = await query(c.body);
      const answer = (await res.json()) as { runs: unknown[] };
      if (res.status !== 200 || answer.runs.length !== 100)
        throw new Error(`query ${c.label} answered ${res.status} with ${answer.runs?.length} runs`);
      hangar.push(performance.now() - started);
      started = performance.now();
      const rows = await pool.query(sql.text, sql.values as unknown[]);
      if (rows.rowCount !== 101) throw new Error(`bare ${c.label} found ${rows.rowCount} rows`);
      bare.push(performance.now() - started);
    }
    const queryCpu = (serverCpuMs() - queryCpuBefore) / SAMPLES;
    const [h50, h99, b50, b99] = [
      percentileOf(hangar, 50),
      percentileOf(hangar, 99),
      percentileOf(bare, 50),
      percentileOf(bare, 99),
    ];
    console.log(
      `run query (${c.label}): Hangar p50 ${h50.toFixed(1)} ms p99 ${h99.toFixed(1)} ms · bare SQL p50 ${b50.toFixed(1)} ms p99 ${b99.toFixed(1)} ms · ratio ${(b99 / h99).toFixed(2)}× · server CPU ${queryCpu.toFixed(1)} ms per query`,
    );
  }

  // 4. Memory over a sustained multipart ingest (BENCH_SOAK_SECONDS=0 leaves it out).
  if (SOAK_SECONDS > 0) {
    const pid = server.process.pid!;
    const samples: { t: number; kib: number }[] = [];
    const soakStarted = performance.now();
    const sampler = setInterval(
      () => samples.push({ t: (performance.now() - soakStarted) / 1000, kib: residentKiB(pid) }),
      5_000,
    );
    let soakRuns = 0;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while ((performance.now() - soakStarted) / 1000 < SOAK_SECONDS) {
          const runs = Array.from({ length: PER_BODY / 5 }, () =>
            traceOf("bench-soak", Date.now() - 1000, false),
          ).flat();
          const b = await multipartBody(runs);
          await post("/runs/multipart", { ...key, "content-type": b.type }, b.body);
          soakRuns += runs.length;
        }
      }),
    );
    clearInterval(sampler);
    const minute = Math.min(60, SOAK_SECONDS / 3);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const early = mean(samples.filter((s) => s.t <= minute).map((s) => s.kib));
    const late = mean(samples.filter((s) => s.t > SOAK_SECONDS - minute).map((s) => s.kib));
    const peak = Math.max(...samples.map((s) => s.kib));
    console.log(
      `memory over ${SOAK_SECONDS} s of ingest (${fmt(soakRuns)} runs): first ${minute.toFixed(0)} s ${fmt(early / 1024)} MiB · last ${minute.toFixed(0)} s ${fmt(late / 1024)} MiB · peak ${fmt(peak / 1024)} MiB · last ÷ first ${(late / early).toFixed(2)}×`,
    );
  }
  console.log(`load average at the end: ${load()}`);
} catch (error) {
  // The server's own account of a failure (a crash, a 500's log line) says more than the client's.
  console.error(server.output().slice(-4000));
  throw error;
} finally {
  await server.stop();
  await pool.end();
  await db.$disconnect();
  await database.drop();
}
