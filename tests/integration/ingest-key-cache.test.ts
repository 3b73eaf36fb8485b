import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "@/server/crypto";
import { INGEST_KEY_CACHE_TTL_MS, IngestKeyCache } from "@/server/auth/ingest-keys";
import { issueIngestKey } from "@/server/services/tracing/ingest-keys";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { listening } from "../helpers/notified-cache";
import { sdkRun } from "../helpers/tracing";

// Deployments' ingest keys are cached like API keys (src/server/auth/ingest-keys.ts, contract
// 15.7): a change to a key (revocation) or a renamed project reaches every cache at once through
// the triggers' notifications, and no entry outlives INGEST_KEY_CACHE_TTL_MS. Time is the test's
// own (a fake Date), never measured.

let tenant: Tenant;
let count = 0;

beforeAll(async () => {
  tenant = await createTenant();
});
afterEach(() => vi.useRealTimers());

/** A deployment, its revision and that revision's ingest key, as the deploy step issues it. */
async function newKey() {
  const name = `cached-agent-${Date.now()}-${count++}`;
  const deployment = await testDb().deployment.create({
    data: {
      workspaceId: tenant.workspaceId,
      name,
      source: "external_container",
      sourceConfig: {},
      sourceRevisionConfig: {},
    },
  });
  const revision = await testDb().revision.create({
    data: {
      deploymentId: deployment.id,
      number: 1,
      source: "external_container",
      status: "DEPLOYED",
      sourceConfig: {},
      sourceRevisionConfig: {},
    },
  });
  const issued = await issueIngestKey(testDb(), { id: revision.id, deployment });
  return { ...issued, hash: sha256Hex(issued.key), deploymentId: deployment.id, name };
}

const listeningCache = () => listening(new IngestKeyCache(process.env.DATABASE_URL));

describe("ingest key cache", () => {
  it("serves a key from memory until the TTL, and never longer", async () => {
    const cache = await listeningCache();
    const key = await newKey();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await cache.find(testDb(), key.hash))?.revoked).toBe(false);
    // Revoked with the triggers off (as no tool of ours does): nothing is announced, so only the
    // TTL can end the cached copy.
    await testDb().$transaction([
      testDb().$executeRaw`SET LOCAL session_replication_role = replica`,
      testDb().tracingIngestKey.updateMany({
        where: { keyHash: key.hash },
        data: { revokedAt: new Date() },
      }),
    ]);
    expect((await cache.find(testDb(), key.hash))?.revoked).toBe(false);
    vi.setSystemTime(Date.now() + INGEST_KEY_CACHE_TTL_MS + 1);
    expect((await cache.find(testDb(), key.hash))?.revoked).toBe(true);
  });

  it("drops a key as soon as it is revoked elsewhere, long before the TTL", async () => {
    const cache = await listeningCache();
    const key = await newKey();
    vi.useFakeTimers({ toFake: ["Date"] }); // the TTL never passes in this test
    expect((await cache.find(testDb(), key.hash))?.revoked).toBe(false);
    await testDb().tracingIngestKey.updateMany({
      where: { keyHash: key.hash },
      data: { revokedAt: new Date() },
    });
    // Only the notification can make the revocation visible while the clock stands still.
    await vi.waitUntil(async () => (await cache.find(testDb(), key.hash))?.revoked, {
      timeout: 30_000,
      interval: 20,
    });
  });

  it("drops its keys when their project is renamed (the key's scope names it)", async () => {
    const cache = await listeningCache();
    const key = await newKey();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await cache.find(testDb(), key.hash))?.projectName).toBe(key.name);
    await testDb().tracingProject.updateMany({
      where: { deploymentId: key.deploymentId },
      data: { name: `${key.name}-renamed` },
    });
    await vi.waitUntil(
      async () => (await cache.find(testDb(), key.hash))?.projectName === `${key.name}-renamed`,
      { timeout: 30_000, interval: 20 },
    );
  });

  it("never caches an unknown key", async () => {
    const cache = await listeningCache();
    expect(await cache.find(testDb(), sha256Hex("hgt_unknown"))).toBeNull();
    expect(await cache.find(testDb(), sha256Hex("hgt_unknown"))).toBeNull();
  });

  it("over HTTP: a key revoked in the database is refused as soon as the news arrives", async () => {
    const key = await newKey();
    for (let i = 0; i < 3; i++) {
      const res = await api("/api/v1/runs", {
        key: key.key,
        method: "POST",
        body: sdkRun({ session_name: undefined }),
      });
      expect(res.status, res.text).toBe(202);
    }
    await testDb().tracingIngestKey.updateMany({
      where: { keyHash: key.hash },
      data: { revokedAt: new Date() },
    });
    // Well inside the cache's 5 s bound, only the announcement explains the 401.
    await vi.waitUntil(
      async () =>
        (
          await api("/api/v1/runs", {
            key: key.key,
            method: "POST",
            body: sdkRun({ session_name: undefined }),
          })
        ).status === 401,
      { timeout: INGEST_KEY_CACHE_TTL_MS / 2, interval: 20 },
    );
  });
});
