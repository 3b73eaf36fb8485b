import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "../../src/server/auth/passwords";
import { createTenant, testDb } from "../helpers/fixtures";
import { signedIn, signInAttempt } from "../helpers/sign-in";
import { api, type ApiResponse } from "../helpers/http";
import { startThrowawayRedis, type ThrowawayRedis } from "../../testing/redis";
import { startServer, type RunningServer } from "../../testing/server";

// The proxy limits before routing: any path containing /repos is a repository listing.
const repos = () => `/v1/integrations/forge/codehost/${randomUUID()}/repos`;
const randomKey = () => `hgr_rl_${randomUUID().replaceAll("-", "")}`;
const times = <T>(n: number, f: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => f(i)));

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

  it("x-user-id alone names no bucket (the address counts); a dashboard session per user id and address", async () => {
    const first = await api("/v2/nothing-here", { headers: { "x-user-id": randomUUID() } });
    expectLimitHeaders(first, "catch-all-ip", 100, 60);

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
      const key = (await createTenant()).keys.viewer;
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
    // A store budget of 250 ms (production's default is 30): a loaded test machine's Redis
    // answers within it, so a counted request is never let through as an outage; the outage
    // test below still shows a paused Redis costs a request only this budget.
    server = await startServer({
      ...inject("testEnv"),
      REDIS_URL: redis.url,
      HANGAR_RATELIMIT_REDIS_TIMEOUT_MS: "250",
    });
    // Until its store has connected (on a loaded machine the first connection can outlast its
    // 1 s grace, and requests meanwhile pass uncounted): a live key's bucket, not the address's.
    const { keys } = await createTenant();
    let warm: ApiResponse | undefined;
    for (let i = 0; i < 50 && !warm?.headers.get("ratelimit-policy"); i++)
      warm = await at("/v1/ping", { key: keys.viewer });
    expect(warm!.headers.get("ratelimit-policy")).not.toBeNull();
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

  // No timing asserted here (the budget is HANGAR_RATELIMIT_REDIS_TIMEOUT_MS, a setting): a
  // paused Redis never answers, so these requests complete only because the limiter gives up
  // on the store and lets them through.
  it("Redis slow or down: requests pass unlimited; limits return with Redis", async () => {
    // Live keys: a made-up key would count by address, which the test above used up.
    const tenant = await createTenant();
    const key = tenant.keys.viewer;
    const sample = async () => {
      const results = [];
      for (let i = 0; i < 15; i++)
        results.push(await api("/v1/ping", { key, baseUrl: server.url }));
      return results;
    };
    // Warm-up, until the store answers: on a loaded machine a slow answer is an outage of its own.
    let warm: ApiResponse | undefined;
    for (let i = 0; i < 50 && !warm?.headers.get("ratelimit-policy"); i++)
      warm = await api("/v1/ping", { key, baseUrl: server.url });
    expect(warm!.headers.get("ratelimit-policy")).not.toBeNull();
    const logStart = server.output().length;

    redis.pause();
    const slow = await sample();
    redis.resume();
    await redis.kill();
    const down = await sample();

    for (const response of [...slow, ...down]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("ratelimit-policy")).toBeNull();
    }

    await redis.restart();
    let back: ApiResponse | undefined;
    for (let i = 0; i < 50 && !back?.headers.get("ratelimit-policy"); i++) {
      await new Promise((r) => setTimeout(r, 200));
      back = await at("/v1/ping", { key });
    }
    expectLimitHeaders(back!, "default-api-key", 1000, 10);
    const deleter = tenant.keys.editor;
    const deletions = await times(11, () => at("/v1/sessions", { key: deleter, method: "DELETE" }));
    expect(deletions.filter((r) => r.status === 429)).toHaveLength(1);

    const log = server.output().slice(logStart);
    expect(log.match(/rate limiter store unavailable/g)).toHaveLength(1);
    expect(log).toContain("rate limiter store recovered");
  });
});

// Issue 11, findings 2 and 7: made-up credentials name no bucket (on an instance and Redis of
// its own, since they use up the address's budget).
describe("rate-limit identity comes from verified credentials only", () => {
  let redis: ThrowawayRedis;
  let server: RunningServer;

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    server = await startServer({ ...inject("testEnv"), REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("signs in again and again with the right password (successes are not failures)", async () => {
    const tenant = await createTenant();
    const email = `signin-ok-${randomUUID()}@example.test`;
    await testDb().user.update({
      where: { id: tenant.userIds.editor },
      data: { email, passwordHash: await hashPassword("the-right-password") },
    });
    for (let i = 0; i < 12; i++)
      expect(
        signedIn(await signInAttempt(email, "the-right-password", { baseUrl: server.url })),
      ).toBe(true);
  });

  it("locks an account after 10 wrong passwords: then even the right one is refused", async () => {
    const db = testDb();
    const tenant = await createTenant();
    const email = `signin-${randomUUID()}@example.test`;
    await db.user.update({
      where: { id: tenant.userIds.viewer },
      data: { email, passwordHash: await hashPassword("the-right-password") },
    });
    for (let i = 0; i < 10; i++) {
      const wrong = await signInAttempt(email, `guess-${i}`, {
        baseUrl: server.url,
        headers: { "x-user-id": randomUUID() },
      });
      expect(wrong.status).toBe(302);
      expect(signedIn(wrong)).toBe(false);
    }
    const right = await signInAttempt(email, "the-right-password", { baseUrl: server.url });
    expect(signedIn(right)).toBe(false);
    expect(right.headers.get("location")).toContain("code=too_many_attempts");
  });

  it("limits sign-in attempts per address, however x-user-id rotates", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "x-user-id": randomUUID(), "content-type": "application/x-www-form-urlencoded" },
        body: "email=a%40b.test&password=x",
      });
      statuses.push(res.status);
    }
    // 23 attempts above, then at most 7 more of the address's 30 per minute.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(18);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
  });

  it("a flood of made-up API keys from one address meets the address's 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 130; i++)
      statuses.push(
        (await api("/v2/deployments", { key: randomKey(), baseUrl: server.url })).status,
      );
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(100);
    expect(statuses.slice(-30).every((s) => s === 429)).toBe(true);
    // A live key still has its own budget from the same address.
    const live = await api("/v2/deployments", {
      key: (await createTenant()).keys.viewer,
      baseUrl: server.url,
    });
    expect(live.status).toBe(200);
  });
});
