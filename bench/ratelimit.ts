// `npm run bench:ratelimit`: the proxy's cost. Two servers from the same build, one with rate
// limiting off, take the same load (API-key calls to an unrouted path; the limiter verifies each
// key once per 10 s against the database) in alternating rounds; prints throughput and p50/p99
// for each and the on/off ratio.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { buildIfStale } from "../scripts/build-if-stale";
import { generateApiKey } from "../src/server/auth/api-keys";
import { createDb } from "../src/server/db";
import { createTestDatabase } from "../testing/database";
import { startServer, type RunningServer } from "../testing/server";
import { ensurePostgres, ensureRedis, REDIS_URL } from "../testing/services";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUNDS = 3;
// Spread over live keys so the 1000/10 API-key default never rejects: the bench measures admits
// (made-up keys would all count against the one address's catch-all).
const keys = Array.from({ length: 64 }, () => generateApiKey());

interface Sample {
  latencies: number[];
  seconds: number;
  limited: number;
}

function get(agent: http.Agent, port: number, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: "/v1/bench", agent, headers: { "x-api-key": key } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
  });
}

async function load(server: RunningServer, requests: number): Promise<Sample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let next = 0;
  let limited = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests) {
        const i = next++;
        const t0 = performance.now();
        if ((await get(agent, server.port, keys[i % keys.length]!.key)) === 429) limited++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  agent.destroy();
  return { latencies, seconds: (performance.now() - started) / 1000, limited };
}

function summary(samples: Sample[]) {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const seconds = samples.reduce((a, s) => a + s.seconds, 0);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    limited: samples.reduce((a, s) => a + s.limited, 0),
  };
}

await ensurePostgres();
await ensureRedis();
buildIfStale();
const database = await createTestDatabase("hangar_bench");
{
  const db = createDb(database.url, 2);
  const org = await db.organization.create({ data: { name: "bench" } });
  await db.apiKey.createMany({
    data: keys.map((k, i) => ({
      organizationId: org.id,
      name: `bench ${i}`,
      kind: "service" as const,
      role: "viewer" as const,
      prefix: k.prefix,
      keyHash: k.hash,
    })),
  });
  await db.$disconnect();
}
const env = {
  DATABASE_URL: database.url,
  REDIS_URL,
  HANGAR_RATELIMIT_PREFIX: `rl-bench-${randomUUID()}`,
};
const on = await startServer({ ...env, HANGAR_RATELIMIT_ENABLED: "true" });
const off = await startServer({ ...env, HANGAR_RATELIMIT_ENABLED: "false" });
try {
  await load(on, 500); // warm-up: route compiled, connections and Redis script loaded
  await load(off, 500);
  const runs: Record<"on" | "off", Sample[]> = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.off.push(await load(off, REQUESTS));
    runs.on.push(await load(on, REQUESTS));
  }
  const results = { off: summary(runs.off), on: summary(runs.on) };
  console.log(
    `\nRate-limit proxy cost: ${ROUNDS} rounds x ${REQUESTS} requests, ${CONCURRENCY} keep-alive connections, Redis store\n`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(results).map(([mode, r]) => [
        `limiting ${mode}`,
        {
          requests: r.requests,
          "req/s": Math.round(r.rps),
          "p50 ms": r.p50.toFixed(2),
          "p99 ms": r.p99.toFixed(2),
          "429s": r.limited,
        },
      ]),
    ),
  );
  console.log(
    `on/off: throughput x${(results.on.rps / results.off.rps).toFixed(3)}, ` +
      `p50 x${(results.on.p50 / results.off.p50).toFixed(3)}, p99 x${(results.on.p99 / results.off.p99).toFixed(3)}`,
  );
  if (results.on.limited + results.off.limited > 0) process.exitCode = 1;
} finally {
  await Promise.all([on.stop(), off.stop()]);
  await database.drop();
}
