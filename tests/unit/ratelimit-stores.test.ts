import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identify, matchRequest } from "../../src/server/ratelimit/match";
import { MemoryStore } from "../../src/server/ratelimit/memory-store";
import { RedisStore } from "../../src/server/ratelimit/redis-store";
import type { RateLimitStore } from "../../src/server/ratelimit/store";
import { ensureRedis, REDIS_URL } from "../../testing/services";

// One prefix per run on the shared Redis: counters never meet other runs', and we delete only ours.
const prefix = `rl-unit-${randomUUID()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function redisStore(): RedisStore {
  return new RedisStore({ url: REDIS_URL, prefix, commandTimeoutMs: 1000, onError: () => {} });
}

async function admitted(
  store: RateLimitStore,
  key: string,
  n: number,
  count: number,
  seconds = 60,
) {
  const results = await Promise.all(
    Array.from({ length: n }, () => store.hit(key, { count, seconds })),
  );
  return results.filter((r) => r.allowed).length;
}

describe("memory store", () => {
  it("admits exactly count, then rejects with remaining 0 and the time to the next slot", async () => {
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now });
    expect(await admitted(store, "k", 50, 20)).toBe(20);
    now += 4_000;
    const rejected = await store.hit("k", { count: 20, seconds: 60 });
    expect(rejected).toEqual({ allowed: false, remaining: 0, resetMs: 56_000 });
  });

  it("smooths the fixed-window boundary: a burst at a window's end blocks the next window's start", async () => {
    let now = 9_000;
    const store = new MemoryStore({ now: () => now });
    const limit = { count: 10, seconds: 10 };
    for (let i = 0; i < 10; i++) expect((await store.hit("b", limit)).allowed).toBe(true);
    now = 10_500; // a fixed 10 s window would have reset at 10_000 and admitted 10 more
    for (let i = 0; i < 10; i++) expect((await store.hit("b", limit)).allowed).toBe(false);
    now = 19_001;
    expect((await store.hit("b", limit)).allowed).toBe(true);
  });

  it("never admits more than count in any window, for arbitrary arrival times", async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    const limit = { count: 7, seconds: 2 };
    const times: number[] = [];
    for (let i = 0; i < 3000; i++) {
      now += Math.floor(Math.random() * 120);
      if ((await store.hit("r", limit)).allowed) times.push(now);
    }
    for (const [i, t] of times.entries()) {
      const inWindow = times.slice(0, i + 1).filter((s) => s > t - 2000).length;
      expect(inWindow).toBeLessThanOrEqual(7);
    }
    expect(times.length).toBeGreaterThan(3000 * 0.1);
  });

  it("stays bounded under many distinct keys and drops expired ones", async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now, maxKeys: 1000, sweepEveryMs: 1000 });
    for (let i = 0; i < 5000; i++) await store.hit(`ip-${i}`, { count: 5, seconds: 1 });
    expect(store.size).toBe(1000);
    now += 5_000;
    await store.hit("fresh", { count: 5, seconds: 1 });
    expect(store.size).toBe(1);
  });
});

describe("redis store (real Redis)", () => {
  const stores: RedisStore[] = [];
  let admin: Redis;

  beforeAll(async () => {
    await ensureRedis();
    admin = new Redis(REDIS_URL);
    stores.push(redisStore(), redisStore(), redisStore());
    await Promise.all(stores.map((s) => s.ready()));
  });

  afterAll(async () => {
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length) await admin.del(...keys);
    await Promise.all(stores.map((s) => s.close()));
    admin.disconnect();
  });

  it("three clients hitting one key concurrently admit exactly count", async () => {
    const key = `c-${randomUUID()}`;
    const counts = await Promise.all(stores.map((s) => admitted(s, key, 100, 120)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
    expect(await admitted(stores[0]!, key, 10, 120)).toBe(0);
  });

  it("reports remaining and the time to the next slot", async () => {
    const key = `r-${randomUUID()}`;
    const first = await stores[0]!.hit(key, { count: 3, seconds: 60 });
    expect(first).toMatchObject({ allowed: true, remaining: 2 });
    expect(first.resetMs).toBeGreaterThan(59_000);
    expect(first.resetMs).toBeLessThanOrEqual(60_000);
    await stores[1]!.hit(key, { count: 3, seconds: 60 });
    await stores[2]!.hit(key, { count: 3, seconds: 60 });
    expect(await stores[0]!.hit(key, { count: 3, seconds: 60 })).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect(await admin.pttl(`${prefix}:${key}`)).toBeGreaterThan(59_000);
  });

  it("slides: a full window half a window ago still blocks; it frees as it ages out", async () => {
    const key = `s-${randomUUID()}`;
    const limit = { count: 5, seconds: 1 };
    expect(await admitted(stores[0]!, key, 5, 5, 1)).toBe(5);
    await sleep(550);
    expect((await stores[1]!.hit(key, limit)).allowed).toBe(false);
    await sleep(500);
    expect(await admitted(stores[2]!, key, 8, 5, 1)).toBe(5);
  });

  it("stores API keys only as a sha256 hash", async () => {
    const apiKey = `hgr_raw_${randomUUID()}`;
    const caller = identify(new Headers({ "x-api-key": apiKey }), "127.0.0.1", null, true);
    const { key } = matchRequest("GET", "/v1/x/repos", caller);
    await stores[0]!.hit(key, { count: 100, seconds: 60 });
    const keys = await admin.keys(`${prefix}:*`);
    expect(keys.some((k) => k.includes("repos-api-key:key:"))).toBe(true);
    expect(keys.join("\n")).not.toContain(apiKey);
  });
});
