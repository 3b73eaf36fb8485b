import { Agent, request } from "node:http";

// A small closed-loop load generator: `concurrency` workers send `total` requests over
// keep-alive connections; reports throughput and latency percentiles.

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

function summary(
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

export async function load(
  url: string,
  opts: { total: number; concurrency: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let bytes = 0;
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request(url, { agent, headers: opts.headers }, (res) => {
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          resolve();
        });
      });
      req.on("error", reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (sent < opts.total) {
        sent++;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summary(latencies, seconds, statuses, bytes);
}
