import { Agent, request } from "node:http";

// Load generators over keep-alive connections: closed loop (`load`, the most the server gives)
// and open loop at a fixed rate (`loadAtRate`, the latency at a given load).

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
  bytes: number;
  /** Every request's latency in ms, sorted. */
  latencies: number[];
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The nearest-rank percentile of unsorted samples (the samples are left as they are). */
export const percentileOf = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
  ]!;

export function summary(
  unsorted: number[],
  seconds: number,
  statuses: Record<number, number>,
  bytes: number,
): LoadResult {
  const latencies = unsorted.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
    bytes,
    latencies,
  };
}

/** Several loads of one target as one: requests and seconds add up, percentiles over all. */
export function combine(parts: LoadResult[]): LoadResult {
  const statuses: Record<number, number> = {};
  for (const part of parts)
    for (const [code, n] of Object.entries(part.statuses))
      statuses[Number(code)] = (statuses[Number(code)] ?? 0) + n;
  return summary(
    parts.flatMap((p) => p.latencies),
    parts.reduce((t, p) => t + p.seconds, 0),
    statuses,
    parts.reduce((t, p) => t + p.bytes, 0),
  );
}

/** One request over `agent`; resolves with its status and body size when the body has ended. */
function send(url: string, agent: Agent, headers?: Record<string, string>) {
  return sendRequest(url, agent, { headers }).then(({ status, bytes }) => ({ status, bytes }));
}

/** One request of any method (with a JSON body when given); resolves with status and body. */
export function sendRequest(
  url: string,
  agent: Agent,
  init: { method?: string; headers?: Record<string, string>; json?: unknown },
) {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const headers = body ? { ...init.headers, "content-type": "application/json" } : init.headers;
  return new Promise<{ status: number; bytes: number; body: string }>((resolve, reject) => {
    const req = request(url, { agent, headers, method: init.method ?? "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: text.length, body: text.toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** What a load counts as its answers come: latencies, statuses, bytes, over one keep-alive agent. */
function tally(concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let bytes = 0;
  const started = performance.now();
  return {
    agent,
    record(answer: { status: number; bytes: number }, ms: number) {
      latencies.push(ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      bytes += answer.bytes;
    },
    done(): LoadResult {
      agent.destroy();
      return summary(latencies, (performance.now() - started) / 1000, statuses, bytes);
    },
  };
}

/**
 * Closed loop: `concurrency` connections each send their next request as soon as the last one
 * answers, `total` in all. Measures the most the server gives; latency is then mostly the
 * queue of the other connections' requests (Little's law: connections / throughput).
 */
export async function load(
  url: string,
  opts: { total: number; concurrency: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const counts = tally(opts.concurrency);
  let sent = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (sent < opts.total) {
        sent++;
        const at = performance.now();
        const answer = await send(url, counts.agent, opts.headers);
        counts.record(answer, performance.now() - at);
      }
    }),
  );
  return counts.done();
}

/**
 * Open loop: requests are due at a fixed `rate` per second whatever the answers take, and sent
 * over at most `concurrency` connections (a request waits for a free one). Latency counts from
 * when a request was due, not when it could be sent, so a stall shows in every request it held
 * back (no coordinated omission): the latency users see at that load.
 */
export async function loadAtRate(
  url: string,
  opts: { rate: number; total: number; concurrency: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const counts = tally(opts.concurrency);
  const started = performance.now();
  const due = (i: number) => started + (i * 1000) / opts.rate;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < opts.total; i++) {
    const wait = due(i) - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      send(url, counts.agent, opts.headers).then((answer) =>
        counts.record(answer, performance.now() - due(i)),
      ),
    );
  }
  await Promise.all(inFlight);
  return counts.done();
}
