import type { Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { RuntimeObservation } from "../../src/schemas/runtime";
import { createCaller } from "../../src/server/api/root";
import type { Actor } from "../../src/server/auth/actor";
import { recordRuntimeObservation } from "../../src/server/services/runtime/state";
import { launchBrowser } from "../helpers/consent-browser";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { insertDeployment } from "../helpers/revision-fixtures";
import { signInAs } from "../helpers/sign-in";

// The dashboard's list carries each row's health (issue 34): an UNKNOWN deployment with a
// revision running gets what the cluster last said of it in the list's own answer, so the page
// asks nothing per row (it used to ask runtime.state once per such row).

let tenant: Tenant;
let other: Tenant;

const caller = (actor: Actor) => createCaller({ db: testDb(), requestId: "list-health", actor });

const crashing: RuntimeObservation = {
  healthy: false,
  reason: "OOMKilled (CrashLoopBackOff)",
  ready_replicas: 0,
  desired_replicas: 1,
  restarts: 3,
  last_termination: {
    reason: "OOMKilled",
    exit_code: 137,
    at: new Date().toISOString(),
    pod: "agent-7d4b9c-x2k1p",
    container: "server",
  },
  components: [{ component: "server", ready: 0, desired: 1, restarts: 3 }],
  events: [],
};
const healthy: RuntimeObservation = {
  ...crashing,
  healthy: true,
  reason: null,
  ready_replicas: 1,
  last_termination: null,
  components: [{ component: "server", ready: 1, desired: 1, restarts: 3 }],
};
const REASON = "Crashing: out of memory, exit 137 — 3 restarts";

/** A deployment whose revision 1 runs on a cluster (READY), optionally observed. */
async function running(
  owner: Tenant,
  observation: RuntimeObservation | null,
  runtime = "kubernetes",
) {
  const db = testDb();
  const id = await insertDeployment(owner, "internal_container");
  const revision = await db.revision.findFirstOrThrow({ where: { deploymentId: id } });
  await db.revision.update({ where: { id: revision.id }, data: { status: "DEPLOYED" } });
  await db.deployment.update({
    where: { id },
    data: {
      activeRevisionId: revision.id,
      status: "READY",
      runtime: runtime as "kubernetes" | "dry_run",
    },
  });
  if (observation) await recordRuntimeObservation(db, id, "kubernetes", observation);
  return id;
}

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

describe("the dashboard's list reports health", () => {
  it("gives an UNKNOWN row with a revision running what the cluster said, and nothing else a health", async () => {
    const unhealthy = await running(tenant, crashing);
    const live = await running(tenant, healthy);
    const unobserved = await running(tenant, null);
    await testDb().deployment.update({ where: { id: unobserved }, data: { status: "UNKNOWN" } });
    const dryRun = await running(tenant, null, "dry_run");
    await testDb().deployment.update({ where: { id: dryRun }, data: { status: "UNKNOWN" } });

    const page = await caller(tenant.actors.viewer).deployments.list({
      deployment_ids: [unhealthy, live, unobserved, dryRun].join(","),
    });
    const byId = new Map(page.resources.map((d) => [d.id, d]));
    expect(byId.get(unhealthy)).toMatchObject({
      status: "UNKNOWN",
      health: {
        healthy: false,
        reason: "OOMKilled (CrashLoopBackOff)",
        restarts: 3,
        last_termination: { reason: "OOMKilled", exit_code: 137 },
        // Said plainly on the server (the list's page loads no runtime-words of its own).
        words: expect.stringMatching(/^Crashing: out of memory, exit 137/),
      },
    });
    expect(byId.get(live)).toMatchObject({ status: "READY", health: null });
    expect(byId.get(unobserved)!.health).toEqual({
      healthy: null,
      reason: "Not observed yet.",
      restarts: 0,
      last_termination: null,
      words: null,
    });
    expect(byId.get(dryRun)!.health).toBeNull();
  });

  it("never shows another workspace's deployment or its health", async () => {
    const theirs = await running(other, crashing);
    const mine = await caller(tenant.actors.viewer).deployments.list({ limit: "100" });
    expect(mine.resources.map((d) => d.id)).not.toContain(theirs);
    const asked = await caller(tenant.actors.viewer).deployments.list({
      deployment_ids: theirs,
    });
    expect(asked).toMatchObject({ resources: [], total: 0 });
    // Its own workspace sees it, health and all.
    const own = await caller(other.actors.viewer).deployments.list({ deployment_ids: theirs });
    expect(own.resources[0]).toMatchObject({ id: theirs, health: { healthy: false } });
  });
});

describe("the list page in Chromium", () => {
  let browser: Browser;
  let crowd: Tenant;
  beforeAll(async () => {
    crowd = await createTenant();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows 20 unhealthy rows with their reasons without a request per row", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await running(crowd, crashing));
    const cookie = await signInAs(crowd.userIds.viewer);
    const baseUrl = inject("baseUrl");
    const context = await browser.newContext({ baseURL: baseUrl });
    const cut = cookie.indexOf("=");
    await context.addCookies([
      { name: cookie.slice(0, cut), value: cookie.slice(cut + 1), url: baseUrl },
    ]);
    const page = await context.newPage();
    const calls: string[] = [];
    // The rows are rendered on the server: a live change refreshes the route (an RSC request for
    // /deployments), which reads deployments.list in-process; any tRPC call is counted too.
    const refreshes: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith("/api/trpc/"))
        calls.push(decodeURIComponent(url.pathname.slice(10)));
      else if (url.pathname === "/deployments" && r.headers()["rsc"] === "1")
        refreshes.push(r.url());
    });

    await page.goto("/deployments?limit=20");
    const table = page.getByRole("table", { name: "Deployments" });
    await expect
      .poll(() => table.getByText(REASON, { exact: true }).count(), { timeout: 20_000 })
      .toBe(20);
    expect(await table.getByText("Unhealthy", { exact: true }).count()).toBe(20);

    // Live: one recovers; the list is rendered again and still asks nothing per row.
    const before = refreshes.length;
    await recordRuntimeObservation(testDb(), ids[0]!, "kubernetes", healthy);
    await expect
      .poll(() => table.getByText(REASON, { exact: true }).count(), { timeout: 20_000 })
      .toBe(19);
    expect(refreshes.length).toBeGreaterThan(before);
    // The rows' health came in the list's answers: no tRPC call at all, so not one runtime.state
    // call per row (it was 20).
    expect(calls).toEqual([]);
    await context.close();
  });
});
