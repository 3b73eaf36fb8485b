import { afterEach, describe, expect, it, vi } from "vitest";
import { clientAddress, PEER_HEADER } from "../../src/server/ratelimit/client-address";
import { rateLimitHeaders } from "../../src/server/ratelimit/headers";
import { FailureReporter, Limiter, type LimiterConfig } from "../../src/server/ratelimit/limiter";
import { sha256Hex } from "../../src/server/crypto";
import { CachedKeyVerifier } from "../../src/server/ratelimit/key-verifier";
import { MemoryStore } from "../../src/server/ratelimit/memory-store";
import { RedisStore } from "../../src/server/ratelimit/redis-store";
import { freePort } from "../../testing/server";

const config: LimiterConfig = { region: "us", trustedProxyHops: 0, failClosed: false };
/** The key "k" is live; every other key is unknown. */
const liveK = new CachedKeyVerifier(async (hash) => hash === sha256Hex("k"));

describe("client address", () => {
  const headers = (xff?: string) =>
    new Headers({ [PEER_HEADER]: "10.0.0.5", ...(xff ? { "x-forwarded-for": xff } : {}) });

  it("with no trusted hops is the socket peer, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers("1.2.3.4"), 0)).toBe("10.0.0.5");
  });

  it("behind trusted proxies is that many entries from the right", () => {
    expect(clientAddress(headers("6.6.6.6, 198.51.100.9"), 1)).toBe("198.51.100.9");
    expect(clientAddress(headers("6.6.6.6, 198.51.100.9, 10.0.0.2"), 2)).toBe("198.51.100.9");
    expect(clientAddress(headers("::ffff:198.51.100.9"), 1)).toBe("198.51.100.9");
  });

  it("falls back to the peer when the chain is shorter than the hops", () => {
    expect(clientAddress(headers("198.51.100.9"), 2)).toBe("10.0.0.5");
  });

  it("is one shared 'unknown' when the server did not stamp the peer", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4" }), 0)).toBe("unknown");
  });
});

describe("headers", () => {
  it("IETF structured fields and GitHub's X-RateLimit-*; Retry-After only when limited", () => {
    const now = 1_700_000_000_000;
    const limit = { count: 100, seconds: 60 };
    expect(
      rateLimitHeaders("repos", limit, { allowed: true, remaining: 57, resetMs: 11_200 }, now),
    ).toEqual({
      "RateLimit-Policy": '"repos";q=100;w=60',
      RateLimit: '"repos";r=57;t=12',
      "X-RateLimit-Limit": "100",
      "X-RateLimit-Remaining": "57",
      "X-RateLimit-Reset": "1700000012",
    });
    const limited = rateLimitHeaders("repos", limit, {
      allowed: false,
      remaining: 0,
      resetMs: 300,
    });
    expect(limited["Retry-After"]).toBe("1");
    expect(limited.RateLimit).toBe('"repos";r=0;t=1');
  });
});

describe("limiter", () => {
  afterEach(() => vi.restoreAllMocks());

  it("passes with headers, then limits with the contract's message", async () => {
    const limiter = new Limiter(new MemoryStore(), config, liveK);
    const headers = new Headers({ "x-api-key": "k", [PEER_HEADER]: "127.0.0.1" });
    for (let i = 0; i < 15; i++) {
      const outcome = await limiter.check("POST", "/runs/query", headers);
      expect(outcome.kind).toBe("pass");
    }
    const outcome = await limiter.check("POST", "/runs/query", headers);
    expect(outcome).toMatchObject({ kind: "limited" });
    if (outcome.kind !== "limited") return;
    expect(outcome.message).toMatch(/^Rate limit exceeded: 15 requests per 10 seconds/);
    expect(outcome.headers["Retry-After"]).toMatch(/^\d+$/);
  });

  it("uses the region's column", async () => {
    const limiter = new Limiter(new MemoryStore(), { ...config, region: "eu" }, liveK);
    const outcome = await limiter.check("POST", "/runs/stats", new Headers({ "x-api-key": "k" }));
    expect(outcome).toMatchObject({
      headers: { "RateLimit-Policy": '"runs-stats-api-key";q=20;w=10' },
    });
  });

  describe("when Redis cannot be reached", () => {
    // A port nobody listens on: every command must fail at once, not wait for a reconnect.
    async function deadStore() {
      const port = await freePort();
      return new RedisStore({
        url: `redis://127.0.0.1:${port}`,
        prefix: "dead",
        commandTimeoutMs: 25,
        onError: () => {},
      });
    }

    it("fails open, without limit headers", async () => {
      const store = await deadStore();
      const limiter = new Limiter(store, config);
      const outcome = await limiter.check("GET", "/v2/x", new Headers({ "x-api-key": "k" }));
      expect(outcome).toEqual({ kind: "pass", headers: {} });
      await store.close();
    });

    it("answers unavailable when configured to fail closed", async () => {
      const store = await deadStore();
      const limiter = new Limiter(store, { ...config, failClosed: true });
      expect(await limiter.check("GET", "/v2/x", new Headers())).toEqual({ kind: "unavailable" });
      await store.close();
    });
  });

  it("logs a failing store once per interval, then its recovery once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    const reporter = new FailureReporter(60_000);
    for (let i = 0; i < 50; i++) reporter.failed(new Error("connect ECONNREFUSED"), false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain("rate limiter store unavailable");
    reporter.succeeded();
    reporter.succeeded();
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]![0]).toContain("recovered");
    // A new outage is reported at once, however soon after the last one.
    reporter.failed(new Error("connect ECONNREFUSED"), false);
    reporter.failed(new Error("connect ECONNREFUSED"), false);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
