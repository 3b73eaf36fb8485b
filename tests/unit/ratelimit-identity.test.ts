import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/server/crypto";
import { PEER_HEADER } from "../../src/server/ratelimit/client-address";
import { CachedKeyVerifier } from "../../src/server/ratelimit/key-verifier";
import { Limiter, type LimiterConfig } from "../../src/server/ratelimit/limiter";
import { MemoryStore } from "../../src/server/ratelimit/memory-store";
import { RedisStore } from "../../src/server/ratelimit/redis-store";
import type { RateLimitStore } from "../../src/server/ratelimit/store";
import { ensureRedis, REDIS_URL } from "../../testing/services";

// Issue 11, findings 2 and 7: a bucket is named only by verified credentials. Made-up API keys
// and x-user-id values from one address share the address's catch-all (100 per minute), on the
// in-memory store and on the real Redis.

const config: LimiterConfig = { region: "us", trustedProxyHops: 0, failClosed: false };
const LIVE = "hgr_live_key_for_identity_tests";
const LIVE_LISTENERS = ["hgl_live_listener_one", "hgl_live_listener_two"];
const at = (extra: Record<string, string>) =>
  new Headers({ [PEER_HEADER]: "198.51.100.23", ...extra });

let redis: RedisStore;
beforeAll(async () => {
  await ensureRedis();
  redis = new RedisStore({
    url: REDIS_URL,
    prefix: `rl-identity-${randomUUID()}`,
    commandTimeoutMs: 1000,
    onError: () => {},
  });
});
afterAll(() => redis?.close());

const stores: [string, () => RateLimitStore][] = [
  ["memory", () => new MemoryStore()],
  ["redis", () => redis],
];

describe.each(stores)("rate-limit identity (%s store)", (_name, store) => {
  const newLimiter = () => {
    const lookups: string[] = [];
    const keys = new CachedKeyVerifier(async (hash) => {
      lookups.push(hash);
      return hash === sha256Hex(LIVE);
    });
    const listeners = new CachedKeyVerifier(async (hash) =>
      LIVE_LISTENERS.some((token) => sha256Hex(token) === hash),
    );
    return { limiter: new Limiter(store(), config, keys, listeners), lookups };
  };

  it("count reports the hits in the window without adding one", async () => {
    const s = store();
    const key = `count-${randomUUID()}`;
    const limit = { count: 5, seconds: 60 };
    expect(await s.count(key, limit)).toBe(0);
    for (let i = 0; i < 3; i++) await s.hit(key, limit);
    expect(await s.count(key, limit)).toBe(3);
    expect(await s.count(key, limit)).toBe(3);
  });

  it("a flood of made-up API keys from one address is 429 after the catch-all's 100", async () => {
    const { limiter } = newLimiter();
    const address = `peer-${randomUUID()}`;
    const outcomes = [];
    for (let i = 0; i < 130; i++) {
      const headers = new Headers({ [PEER_HEADER]: address, "x-api-key": `hgr_${randomUUID()}` });
      outcomes.push(await limiter.check("GET", "/v2/deployments", headers));
    }
    expect(outcomes.filter((o) => o.kind === "pass")).toHaveLength(100);
    expect(outcomes.filter((o) => o.kind === "limited")).toHaveLength(30);
    const first = outcomes[0]!;
    expect(first.kind === "pass" && first.headers["RateLimit-Policy"]).toBe(
      '"catch-all-ip";q=100;w=60',
    );
  });

  it("a live listener token has the protocol row to itself: 1200 a minute, per listener", async () => {
    const { limiter } = newLimiter();
    const address = `peer-${randomUUID()}`;
    const poll = (token: string) =>
      limiter.check(
        "POST",
        "/v2/listener/work",
        new Headers({ [PEER_HEADER]: address, authorization: `Bearer ${token}` }),
      );
    // A made-up listener token names no bucket: the address's catch-all.
    const madeUp = await poll(`hgl_${randomUUID()}`);
    expect(madeUp.kind === "pass" && madeUp.headers["RateLimit-Policy"]).toBe(
      '"catch-all-ip";q=100;w=60',
    );
    const [one, two] = LIVE_LISTENERS.map((t) => `${t}_${randomUUID()}`);
    LIVE_LISTENERS.push(one!, two!);
    const outcomes = [];
    for (let i = 0; i < 1201; i++) outcomes.push(await poll(one!));
    expect(outcomes.filter((o) => o.kind === "pass")).toHaveLength(1200);
    const last = outcomes.at(-1)!;
    expect(last.kind).toBe("limited");
    expect(last.kind === "limited" && last.message).toContain("(Listener protocol)");
    expect(last.kind === "limited" && last.headers["RateLimit-Policy"]).toBe(
      '"listener-protocol";q=1200;w=60',
    );
    // Another listener from the same address has its own bucket; the address is not spent.
    expect((await poll(two!)).kind).toBe("pass");
    expect((await poll(`hgl_${randomUUID()}`)).kind).toBe("pass");
  });

  it("a live key counts by the key, not the address", async () => {
    const { limiter } = newLimiter();
    const outcome = await limiter.check("GET", "/v2/deployments", at({ "x-api-key": LIVE }));
    expect(outcome.kind === "pass" && outcome.headers["RateLimit-Policy"]).toBe(
      '"default-api-key";q=1000;w=10',
    );
  });

  it("rotating x-user-id without a session is the address's catch-all too", async () => {
    const { limiter } = newLimiter();
    const address = `peer-${randomUUID()}`;
    const outcomes = [];
    for (let i = 0; i < 120; i++) {
      const headers = new Headers({ [PEER_HEADER]: address, "x-user-id": randomUUID() });
      outcomes.push(await limiter.check("GET", "/v2/deployments", headers));
    }
    expect(outcomes.filter((o) => o.kind === "limited")).toHaveLength(20);
  });

  it("sign-in attempts have their own limit per address, whatever x-user-id says", async () => {
    const { limiter } = newLimiter();
    const address = `peer-${randomUUID()}`;
    const outcomes = [];
    for (let i = 0; i < 40; i++) {
      const headers = new Headers({ [PEER_HEADER]: address, "x-user-id": randomUUID() });
      outcomes.push(await limiter.check("POST", "/api/auth/callback/credentials", headers));
    }
    expect(outcomes.filter((o) => o.kind === "pass")).toHaveLength(30);
    expect(outcomes.at(-1)).toMatchObject({ kind: "limited" });
  });
});

describe("verified key cache", () => {
  it("shares one lookup among concurrent checks and answers from the cache until it expires", async () => {
    let live = true;
    let lookups = 0;
    let now = 0;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const keys = new CachedKeyVerifier(async () => (lookups++, live), 5_000);
      expect(await Promise.all([keys.isLive("h"), keys.isLive("h"), keys.isLive("h")])).toEqual([
        true,
        true,
        true,
      ]);
      expect(lookups).toBe(1);
      live = false; // revoked
      now = 4_999;
      expect(await keys.isLive("h")).toBe(true);
      now = 5_001; // the documented bound has passed
      expect(await keys.isLive("h")).toBe(false);
      expect(lookups).toBe(2);
    } finally {
      Date.now = realNow;
    }
  });
});
