import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { api, type ApiResponse } from "../helpers/http";
import { startThrowawayRedis, type ThrowawayRedis } from "../helpers/redis";
import { startServer, type RunningServer } from "../helpers/server";

// The proxy limits before routing: any path containing /repos is a repository listing.
const repos = () => `/v1/integrations/forge/codehost/${randomUUID()}/repos`;
const randomKey = () => `hgr_rl_${randomUUID().replaceAll("-", "")}`;
const times = <T>(n: number, f: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => f(i)));
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(path: string, options: Parameters<typeof api>[1]) {
  const started = performance.now();
  const response = await api(path, options);
  return { response, ms: performance.now() - started };
}

function expectLimitHeaders(response: ApiResponse, policy: string, q: number, w: number) {
  expect(response.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${q};w=${w}`);
  expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"${policy}";r=\\d+;t=\\d+$`));
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(q));
  const reset = Number(response.headers.get("x-ratelimit-reset"));
  expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + w);
}

describe("rate limits on the shared server", () => {
  it("the 101st repository listing in a minute from one key is 429; another key is not", async () => {
    const tenant = await createTenant();
    const path = repos();
    const admitted = await times(100, () => api(path, { key: tenant.keys.viewer }));
    expect(admitted.filter((r) => r.status === 429)).toEqual([]);
    for (const r of admitted) expectLimitHeaders(r, "repos-api-key", 100, 60);
    const remaining = admitted.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 100 }, (_, i) => i)));

    const limited = await api(path, { key: tenant.keys.viewer });
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^Rate limit exceeded: 100 requests per 60 seconds/);
    expectLimitHeaders(limited, "repos-api-key", 100, 60);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toBe(`"repos-api-key";r=0;t=${retryAfter}`);
    expect(limited.headers.get("x-request-id")).toBeTruthy();

    const other = await api(repos(), { key: tenant.keys.editor });
    expect([200, 401, 404]).toContain(other.status);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("99");
  });

  it("x-user-id calls count per user and address; a dashboard session per user id", async () => {
    const user = randomUUID();
    const first = await api("/v2/nothing-here", { headers: { "x-user-id": user } });
    expectLimitHeaders(first, "default-user", 1000, 10);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("999");

    const secret = inject("testEnv").AUTH_SECRET!;
    const salt = "authjs.session-token";
    const jwt = await encode({ token: { uid: `session-${randomUUID()}` }, secret, salt });
    const cookie = `${salt}=${jwt}`;
    const a = await api("/v2/nothing-here", { headers: { cookie } });
    const b = await api("/v2/nothing-here", { headers: { cookie, "x-user-id": randomUUID() } });
    expectLimitHeaders(a, "default-user", 1000, 10);
    expect([a, b].map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["999", "998"]);
  });

  it("two instances sharing Redis admit exactly the limit under concurrent load", async () => {
    const second = await startServer(inject("testEnv"));
    try {
      const key = randomKey();
      const path = repos();
      const bases = [inject("baseUrl"), second.url];
      const statuses = await times(260, (i) =>
        api(path, { key, baseUrl: bases[i % 2] }).then((r) => r.status),
      );
      expect(statuses.filter((s) => s !== 429)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(160);
    } finally {
      await second.stop();
    }
  });
});

describe("an instance on a Redis of its own", () => {
  let redis: ThrowawayRedis;
  let server: RunningServer;
  const at = (path: string, options: Parameters<typeof api>[1] = {}) =>
    api(path, { ...options, baseUrl: server.url });

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    // The production default timeout (30 ms): the bound under test.
    server = await startServer({
      ...inject("testEnv"),
      REDIS_URL: redis.url,
      HANGAR_RATELIMIT_REDIS_TIMEOUT_MS: "30",
    });
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("anonymous callers share 100 per minute per address; forged X-Forwarded-For changes nothing", async () => {
    const first = await at("/v2/anything");
    expectLimitHeaders(first, "catch-all-ip", 100, 60);
    const left = Number(first.headers.get("x-ratelimit-remaining"));
    const forged = await times(left, (i) =>
      at("/v2/anything", { headers: { "x-forwarded-for": `198.51.100.${i % 250}` } }),
    );
    expect(forged.filter((r) => r.status === 429)).toEqual([]);
    for (const headers of <Record<string, string>[]>[
      {},
      { "x-forwarded-for": "203.0.113.99" },
      { "x-forwarded-for": "203.0.113.99, 127.0.0.1" },
      { "x-real-ip": "203.0.113.98" },
      { "x-hangar-peer-address": "203.0.113.97" },
    ]) {
      const limited = await at("/v2/anything", { headers });
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toMatch(/^Rate limit exceeded/);
    }
  });

  it("Redis slow or down: requests pass within 50 ms of usual; limits return with Redis", async () => {
    const key = randomKey();
    const sample = async () => {
      const results = [];
      for (let i = 0; i < 15; i++)
        results.push(await timed("/v1/ping", { key, baseUrl: server.url }));
      return results;
    };
    await sample(); // warm-up
    const usual = median((await sample()).map((r) => r.ms));
    const logStart = server.output().length;

    redis.pause();
    const slow = await sample();
    redis.resume();
    await redis.kill();
    const down = await sample();

    for (const { response, ms } of [...slow, ...down]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("ratelimit-policy")).toBeNull();
      expect(ms).toBeLessThan(1000);
    }
    expect(median(slow.map((r) => r.ms))).toBeLessThan(usual + 50);
    expect(median(down.map((r) => r.ms))).toBeLessThan(usual + 50);

    await redis.restart();
    let back: ApiResponse | undefined;
    for (let i = 0; i < 50 && !back?.headers.get("ratelimit-policy"); i++) {
      await new Promise((r) => setTimeout(r, 200));
      back = await at("/v1/ping", { key });
    }
    expectLimitHeaders(back!, "default-api-key", 1000, 10);
    const deleter = randomKey();
    const deletions = await times(11, () => at("/v1/sessions", { key: deleter, method: "DELETE" }));
    expect(deletions.filter((r) => r.status === 429)).toHaveLength(1);

    const log = server.output().slice(logStart);
    expect(log.match(/rate limiter store unavailable/g)).toHaveLength(1);
    expect(log).toContain("rate limiter store recovered");
  });
});
