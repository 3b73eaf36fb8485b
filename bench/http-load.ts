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
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: pct(50),
    p99: pct(99),
    statuses,
    bytes,
  };
}
