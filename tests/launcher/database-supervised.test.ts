import { readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPostgres } from "../../src/server/db/embedded/server";
import { createTestDatabase } from "../../testing/database";
import { PG_ADMIN_URL } from "../../testing/services";
import { serverSentEvents } from "../helpers/event-stream";
import { api } from "../helpers/http";
import {
  LAUNCHER_KEY,
  launchHangar,
  newDataDir,
  postmasterPid,
  type Launched,
} from "../helpers/launcher";

// The embedded PostgreSQL killed under a running `npm start` (SIGKILL of its postmaster, as the
// out-of-memory killer does): started again, found again by the web server and the worker, with
// everything committed before; a server that keeps failing is retried ever more slowly. And an
// external PostgreSQL that drops every session and refuses new ones for a while: the same
// reconnection, without a restart of Hangar.

/** What a test does through one running Hangar, and what it has had answered 201. */
function client(launched: () => Launched) {
  const run = Math.random().toString(36).slice(2, 7);
  let attempt = 0;
  const committed: string[] = [];
  const call = (p: string, options: Parameters<typeof api>[1] = {}) =>
    api(p, { key: LAUNCHER_KEY, baseUrl: launched().url, ...options });
  const readyz = () =>
    fetch(`${launched().url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
  /** One create (a fresh name each time); its status, 0 when no answer came. */
  const tryCreate = async () => {
    const name = `sup-${run}-${attempt++}`;
    const res = await call("/v2/deployments", {
      method: "POST",
      body: {
        name,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/app:1" },
      },
    }).catch(() => ({ status: 0, body: undefined }));
    if (res.status === 201) committed.push(name);
    return { status: res.status, id: res.body?.id as string | undefined };
  };
  const listed = async () => {
    const res = await call(`/v2/deployments?name_contains=sup-${run}&limit=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.resources.map((d: { name: string }) => d.name).sort();
  };
  const revisionStatus = async (id: string) =>
    (await call(`/v2/deployments/${id}/revisions`)).body?.resources?.[0]?.status;
  return { committed, readyz, tryCreate, listed, revisionStatus };
}

/**
 * A database outage under a running Hangar with an event stream open: `/readyz` is 503 while the
 * database is away and 200 once it is back (no flapping), a write succeeds within the goal's
 * 30 s, nothing answered 201 before is lost, the worker runs revisions again and the event
 * stream resynchronises and carries changes. `fault` starts the outage; `heal`, when the
 * database does not come back by itself, ends it once /readyz has said 503.
 */
async function expectOutageRecovered(
  launched: Launched,
  c: ReturnType<typeof client>,
  fault: () => Promise<void>,
  heal?: () => Promise<void>,
): Promise<number> {
  for (let i = 0; i < 3; i++) expect((await c.tryCreate()).status).toBe(201);
  const abort = new AbortController();
  const stream = await fetch(`${launched.url}/v2/deployments/events`, {
    headers: { "x-api-key": LAUNCHER_KEY },
    signal: abort.signal,
  });
  expect(stream.status).toBe(200);
  const events: { event: string; data: string }[] = [];
  void (async () => {
    for await (const e of serverSentEvents(stream.body!)) events.push(e);
  })().catch(() => undefined);
  await expect.poll(() => events.some((e) => e.event === "ready")).toBe(true);

  const statuses: number[] = [];
  let watching = true;
  const watch = (async () => {
    while (watching) {
      statuses.push(await c.readyz());
      await sleep(20);
    }
  })();
  const faultAt = Date.now();
  await fault();
  if (heal) {
    await expect.poll(() => statuses.includes(503)).toBe(true);
    // Writes are refused cleanly meanwhile.
    expect((await c.tryCreate()).status).toBe(503);
    await heal();
  }
  // The first write that succeeds: within the goal's 30 s.
  let created: { status: number; id?: string } = { status: 0 };
  await expect
    .poll(async () => (created = await c.tryCreate()).status, { timeout: 30_000, interval: 200 })
    .toBe(201);
  const recoveredMs = Date.now() - faultAt;
  await expect.poll(c.readyz).toBe(200);
  watching = false;
  await watch;

  const runs = statuses.filter((s, i) => s !== statuses[i - 1]);
  expect(runs.join(",")).toMatch(/^(200,)?503,200$/);
  expect(await c.listed()).toEqual([...c.committed].sort());
  // The worker found the database again: the new revision is deployed (dry run).
  await expect.poll(() => c.revisionStatus(created.id!), { timeout: 30_000 }).toBe("DEPLOYED");
  // The event stream resynchronised (a second `ready`) and carries changes again.
  await expect.poll(() => events.filter((e) => e.event === "ready").length).toBe(2);
  const after = await c.tryCreate();
  expect(after.status).toBe(201);
  await expect
    .poll(() => events.some((e) => e.event === "change" && e.data.includes(after.id!)))
    .toBe(true);
  abort.abort();
  return recoveredMs;
}

describe("npm start supervises the embedded PostgreSQL", () => {
  let hangar: Launched;
  const c = client(() => hangar);
  const { committed, readyz, tryCreate, listed } = c;

  beforeAll(async () => {
    hangar = await launchHangar(await newDataDir());
  });
  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  });

  it("starts a killed postmaster again: /readyz 503 then 200, writes, events and the worker back within 30 s, nothing lost", async () => {
    const pid = postmasterPid(hangar.dataDir);
    const mark = hangar.output().length;
    const recoveredMs = await expectOutageRecovered(hangar, c, async () => {
      process.kill(pid, "SIGKILL");
      await expect.poll(() => isPostgres(pid)).toBe(false);
    });
    const log = hangar.output().slice(mark);
    console.log(`database killed → a write succeeded again after ${recoveredMs} ms`);
    console.log(
      log
        .split("\n")
        .filter((l) => /PostgreSQL/.test(l))
        .join("\n"),
    );
    expect(log).toContain(`The embedded PostgreSQL (pid ${pid}) exited unexpectedly`);
    expect(log).toMatch(/The embedded PostgreSQL is running again \(pid \d+/);
    expect(postmasterPid(hangar.dataDir)).not.toBe(pid);
  });

  it("backs a crash loop off (pauses doubling up to 30 s), says so, keeps /readyz 503, and recovers once the fault is gone", async () => {
    // A setting PostgreSQL refuses at start: every restart fails until it is taken out.
    const conf = path.join(hangar.dataDir, "postgres", "postgresql.auto.conf");
    const original = readFileSync(conf, "utf8");
    writeFileSync(conf, `${original}\nmax_connections = 'broken'\n`);
    const mark = hangar.output().length;
    const pid = postmasterPid(hangar.dataDir);
    process.kill(pid, "SIGKILL");
    const backoffs = () => [
      ...hangar
        .output()
        .slice(mark)
        .matchAll(/backing off: next restart in ([\d.]+) s/g),
    ];
    await expect.poll(() => backoffs().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    // Each pause twice the last (how many failures came before depends on the first test).
    const pauses = backoffs().map((m) => Number(m[1]));
    expect(pauses.slice(1)).toEqual(pauses.slice(0, -1).map((p) => Math.min(2 * p, 30)));
    const log = hangar.output().slice(mark);
    expect(log).toContain("The embedded PostgreSQL could not be restarted");
    expect(log).toContain("max_connections");
    expect(await readyz()).toBe(503);
    expect((await tryCreate()).status).toBe(503);

    writeFileSync(conf, original);
    // The next attempt comes after the pause announced last, then the database is back.
    await expect.poll(readyz, { timeout: 30_000, interval: 250 }).toBe(200);
    expect((await tryCreate()).status).toBe(201);
    expect(await listed()).toEqual([...committed].sort());
  });
});

describe("npm start on an external PostgreSQL that drops every session for a while", () => {
  let hangar: Launched;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const c = client(() => hangar);
  const admin = async (sql: string) => {
    const session = new pg.Client({ connectionString: PG_ADMIN_URL });
    await session.connect();
    try {
      await session.query(sql);
    } finally {
      await session.end();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase("hangar_outage");
    hangar = await launchHangar(await newDataDir(), { databaseUrl: database.url });
  });
  afterAll(async () => {
    await hangar?.signal("SIGTERM");
    await database?.drop();
    if (hangar) await rm(hangar.dataDir, { recursive: true, force: true });
  });

  it("reconnects every pool, the queue and the listeners by itself once it accepts sessions again", async () => {
    const name = new URL(database.url).pathname.slice(1);
    const recoveredMs = await expectOutageRecovered(
      hangar,
      c,
      async () => {
        // As a restart or a failover does: every session ends, new ones are refused meanwhile.
        await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await admin(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
        );
      },
      () => admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`),
    );
    console.log(`external database away and back → a write succeeded after ${recoveredMs} ms`);
  });
});
