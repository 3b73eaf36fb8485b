import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generateApiKey } from "@/server/auth/api-keys";
import { API_KEY_CACHE_TTL_MS, ApiKeyCache } from "@/server/auth/api-key-cache";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { listening } from "../helpers/notified-cache";

// Verified API keys are cached (src/server/auth/api-key-cache.ts). The bound: a change to a key
// reaches every cache at once through the api_keys trigger's notification, and no entry outlives
// API_KEY_CACHE_TTL_MS. Time is the test's own (a fake Date), never measured.

let tenant: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
});
afterEach(() => vi.useRealTimers());

async function newKey() {
  const key = generateApiKey();
  const row = await testDb().apiKey.create({
    data: {
      organizationId: tenant.organizationId,
      workspaceId: tenant.workspaceId,
      name: "cached",
      kind: "service",
      role: "viewer",
      prefix: key.prefix,
      keyHash: key.hash,
    },
  });
  return { ...key, id: row.id };
}

const listeningCache = () => listening(new ApiKeyCache(process.env.DATABASE_URL));

describe("API key cache", () => {
  it("serves a verified key from memory until the TTL, and never longer", async () => {
    const cache = await listeningCache();
    const key = await newKey();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await cache.find(testDb(), key.hash))?.lastUsedAt).toBeNull();
    // A last-use change is not announced (it is no reason to drop a key): the copy stays.
    const used = new Date("2026-01-02T03:04:05Z");
    await testDb().apiKey.update({ where: { id: key.id }, data: { lastUsedAt: used } });
    expect((await cache.find(testDb(), key.hash))?.lastUsedAt).toBeNull();
    vi.setSystemTime(Date.now() + API_KEY_CACHE_TTL_MS + 1);
    expect((await cache.find(testDb(), key.hash))?.lastUsedAt).toEqual(used);
  });

  it("drops a key as soon as it is revoked elsewhere, long before the TTL", async () => {
    const cache = await listeningCache();
    const key = await newKey();
    vi.useFakeTimers({ toFake: ["Date"] }); // the TTL never passes in this test
    expect((await cache.find(testDb(), key.hash))?.revokedAt).toBeNull();
    await testDb().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    // Only the notification can make the revocation visible while the clock stands still.
    await vi.waitUntil(async () => (await cache.find(testDb(), key.hash))?.revokedAt, {
      timeout: 30_000,
      interval: 20,
    });
  });

  it("never caches an unknown key", async () => {
    const cache = await listeningCache();
    const key = generateApiKey();
    expect(await cache.find(testDb(), key.hash)).toBeNull();
    await testDb().apiKey.create({
      data: {
        organizationId: tenant.organizationId,
        workspaceId: tenant.workspaceId,
        name: "late",
        kind: "service",
        role: "viewer",
        prefix: key.prefix,
        keyHash: key.hash,
      },
    });
    expect(await cache.find(testDb(), key.hash)).not.toBeNull();
  });

  it("over HTTP: a key revoked in the database is refused as soon as the news arrives", async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++)
      expect((await api("/v2/tag-keys", { key: key.key })).status).toBe(200);
    await testDb().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    // The announcement reaches the server a moment after the commit (a request sent in that
    // moment may still pass); well inside the cache's 5 s bound, only the announcement explains it.
    await vi.waitUntil(async () => (await api("/v2/tag-keys", { key: key.key })).status === 401, {
      timeout: API_KEY_CACHE_TTL_MS / 2,
      interval: 20,
    });
  });
});
