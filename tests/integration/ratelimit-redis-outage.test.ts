import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startThrowawayRedis, type ThrowawayRedis } from "../../testing/redis";
import { startServer, type RunningServer } from "../../testing/server";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api, type ApiResponse } from "../helpers/http";

// Issue 27, goal 6: Redis lost and back, for real (a redis-server of the test's own, SIGKILLed
// and started again on the same port). While it is down the API serves by the configured policy
// (fail-open: everything admitted without limits; HANGAR_RATELIMIT_FAIL_CLOSED: 503 with
// Retry-After 1), for longer than the client's reconnect back-off, and once it is back the limits
// apply again. No timing is asserted: the outage only has to outlast the back-off's cap.

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const policies = [
  ["fail-open (the default)", false],
  ["fail-closed", true],
] as const;

describe.each(policies)("Redis lost and back, %s", (_, failClosed) => {
  let redis: ThrowawayRedis;
  let server: RunningServer;
  let tenant: Tenant;
  const at = (path: string, key: string, options: Parameters<typeof api>[1] = {}) =>
    api(path, { ...options, key, baseUrl: server.url });
  const limited = (r: ApiResponse) => r.headers.get("ratelimit-policy") !== null;
  const create = (i: number) =>
    at("/v2/deployments", tenant.keys.editor, {
      method: "POST",
      body: {
        name: `outage-${failClosed ? "closed" : "open"}-${i}-${Date.now().toString(36)}`,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/app:1" },
      },
    });

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    server = await startServer({
      ...inject("testEnv"),
      REDIS_URL: redis.url,
      HANGAR_RATELIMIT_FAIL_CLOSED: String(failClosed),
    });
    tenant = await createTenant();
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("serves by the policy while Redis is down, and limits again once it is back", async () => {
    let warm: ApiResponse | undefined;
    for (let i = 0; i < 50 && !(warm && limited(warm)); i++)
      warm = await at("/v2/deployments?limit=1", tenant.keys.viewer);
    expect(warm!.status).toBe(200);
    const logStart = server.output().length;

    await redis.kill();
    const during: ApiResponse[] = [];
    for (let i = 0; i < 6; i++) {
      during.push(await at("/v2/deployments?limit=5", tenant.keys.viewer), await create(i));
      await pause(500);
    }
    // The health probes answer whatever the policy: they say the process and database are up.
    for (const probe of ["/healthz", "/readyz"])
      expect((await fetch(`${server.url}${probe}`)).status).toBe(200);
    for (const [i, response] of during.entries()) {
      expect(limited(response)).toBe(false);
      if (failClosed) {
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(response.body.detail).toBe(
          "Service unavailable: the rate limiter cannot be reached",
        );
      } else {
        // A list, then a create, six times over.
        expect(response.status, response.text).toBe(i % 2 === 0 ? 200 : 201);
      }
    }

    await redis.restart();
    let back: ApiResponse | undefined;
    for (let i = 0; i < 50 && !(back && limited(back)); i++) {
      await pause(200);
      back = await at("/v2/deployments?limit=1", tenant.keys.viewer);
    }
    expect(back!.status).toBe(200);
    expect(limited(back!)).toBe(true);
    // The restarted Redis is empty: a fresh window, and its limit holds (10 per 10 s).
    const deletions = await Promise.all(
      Array.from({ length: 11 }, () =>
        at("/v1/sessions", tenant.keys.editor, { method: "DELETE" }),
      ),
    );
    expect(deletions.filter((r) => r.status === 429)).toHaveLength(1);
    expect((await create(99)).status).toBe(201);

    const log = server.output().slice(logStart);
    expect(log).toContain("rate limiter store unavailable");
    expect(log).toContain(failClosed ? "refused (503)" : "admitted unlimited");
    expect(log).toContain("rate limiter store recovered");
  });
});

describe("Redis down when the server starts (fail-open)", () => {
  let redis: ThrowawayRedis;
  let server: RunningServer;

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("serves unlimited until Redis comes up, then limits", async () => {
    redis = await startThrowawayRedis();
    await redis.kill();
    server = await startServer({ ...inject("testEnv"), REDIS_URL: redis.url });
    const tenant = await createTenant();
    const before = await api("/v2/deployments?limit=1", {
      key: tenant.keys.viewer,
      baseUrl: server.url,
    });
    expect(before.status).toBe(200);
    expect(before.headers.get("ratelimit-policy")).toBeNull();

    await redis.restart();
    let back: ApiResponse | undefined;
    for (let i = 0; i < 50 && !back?.headers.get("ratelimit-policy"); i++) {
      await pause(200);
      back = await api("/v2/deployments?limit=1", { key: tenant.keys.viewer, baseUrl: server.url });
    }
    expect(back!.headers.get("ratelimit-policy")).toBe('"default-api-key";q=1000;w=10');
  });
});
