import { readFileSync } from "node:fs";
import pg from "pg";
import { startFakeKubeApi, type FakeKubeApi } from "../testing/fake-kube-api";
import { startServer, startWorkerProcess, type RunningServer } from "../testing/server";
import { createDeployment, latestRevisionId, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The Logs tab (issue 25): a server with a cluster (the fake Kubernetes API) on the run's
// database, and a deployment in the state a Kubernetes deploy leaves (its revision's objects
// applied to the cluster in namespace e2e-agents, runtime kubernetes). Lines its pods print while
// the page is open arrive over the stream (issue 34: server-sent events over the cluster's log
// follow, closed when the viewer pauses); filters and pause work; the download holds every
// matching line; a crash loop shows its banner; at 390 px it stays readable.

const NAMESPACE = "e2e-agents";
let kube: FakeKubeApi;
let server: RunningServer;

test.beforeAll(async () => {
  kube = await startFakeKubeApi();
  server = await startServer({
    ...(JSON.parse(process.env.E2E_SERVER_ENV!) as Record<string, string>),
    HANGAR_KUBECONFIG: kube.kubeconfig(),
  });
});
test.afterAll(async () => {
  await server?.stop();
  await kube?.stop();
});

/** What the Kubernetes deployer leaves: the server Deployment applied, the rows saying so. */
async function runOnCluster(id: string, name: string) {
  const labels = {
    "app.kubernetes.io/component": "server",
    "app.kubernetes.io/managed-by": "hangar",
    "hangar.dev/deployment-id": id,
    "hangar.dev/revision": "1",
  };
  const object = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: NAMESPACE, labels },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: "server", image: "registry.example.com/agent:1" }] },
      },
    },
  };
  const res = await fetch(
    `${kube.url}/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${name}?fieldManager=hangar`,
    {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${kube.token}`,
        "content-type": "application/apply-patch+yaml",
      },
      body: JSON.stringify(object),
    },
  );
  expect(res.status).toBe(201);
  const { E2E_SERVER_ENV } = process.env;
  const db = new pg.Client({ connectionString: JSON.parse(E2E_SERVER_ENV!).DATABASE_URL });
  await db.connect();
  await db.query(`UPDATE deployments SET runtime = 'kubernetes' WHERE id = $1`, [id]);
  await db.query(
    `UPDATE revisions SET runtime = 'kubernetes', manifests = $2 WHERE deployment_id = $1`,
    [id, JSON.stringify([object])],
  );
  await db.end();
}

test("lines the agent server prints arrive in the Logs tab while it is open", async ({ page }) => {
  await signIn(page, state.admin);
  const name = "runtime-logs-e2e";
  const id = await createDeployment(page, name);
  await waitForRevision(page, id, 1, "DEPLOYED");
  await runOnCluster(id, name);

  // The session cookie is the run's (same secrets, same host): the server with a cluster.
  const streamed = page.waitForResponse((r) =>
    r.url().includes(`/v2/deployments/${id}/logs/stream`),
  );
  await page.goto(`${server.url}/deployments/${id}/logs`);
  await expect(page.getByRole("heading", { name: "Logs", exact: true })).toBeVisible();
  await expect(page.getByText("Nothing printed yet.")).toBeVisible();
  await expect(page.getByText(/Hangar keeps no copy/)).toBeVisible();
  expect((await streamed).headers()["content-type"]).toMatch(/^text\/event-stream/);
  await expect.poll(() => kube.podLogFollowed(name)).toBe(true);

  const stamp = new Date().toISOString();
  kube.printLog(name, [
    `${stamp} INFO Application startup complete`,
    "ERROR graph failed: boom",
    `handled request ${"with-a-long-token-".repeat(3)} and words that wrap between them ${"word ".repeat(30)}end`,
  ]);
  const log = page.getByRole("log", { name: "Runtime log" });
  await expect(log.getByText("Application startup complete").first()).toBeVisible();
  await expect(log.getByText("graph failed: boom")).toHaveCount(2);
  // The app's own time and level, repeating Hangar's columns, are folded.
  await expect(log.getByTestId("log-message").first()).toHaveText("Application startup complete");

  // Fixed columns: every message starts at the same x, whatever the replica's name.
  const starts = await log
    .getByTestId("log-message")
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  expect(new Set(starts).size).toBe(1);
  // Wrapped between words: no line of the long message ends inside a word.
  const wrapped = log.getByText(/^handled request/).first();
  expect(await wrapped.evaluate((e) => getComputedStyle(e).wordBreak)).toBe("normal");

  // Level filter, search, replica.
  await page.getByLabel("Level").selectOption("ERROR");
  await expect(log.getByText("Application startup complete")).toHaveCount(0);
  await expect(log.getByText("graph failed: boom")).toHaveCount(2);

  // The download holds every matching line, read by the server (not the rows on screen).
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${name}-logs-\\d{8}T\\d{6}Z\\.txt$`));
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.match(/ ERROR graph failed: boom$/gm)).toHaveLength(2);
  expect(text).not.toContain("startup complete");

  await page.getByLabel("Level").selectOption("");
  await page.getByLabel("Search the log").fill("startup");
  await expect(log.getByText("graph failed: boom")).toHaveCount(0);
  await page.getByLabel("Search the log").fill("");
  const replicas = page.getByLabel("Replica").locator("option");
  await expect(replicas).toHaveCount(3);
  await page.getByLabel("Replica").selectOption({ index: 1 });
  await expect(log.getByText("graph failed: boom")).toHaveCount(1);
  await page.getByLabel("Replica").selectOption("");

  // Paused, the stream is closed and new lines wait; following again, they arrive.
  await expect.poll(() => kube.podLogFollowed(name)).toBe(true);
  await page.getByRole("button", { name: "Pause" }).click();
  await expect.poll(() => kube.podLogFollowed(name)).toBe(false);
  kube.printLog(name, ["INFO after the pause"], { replica: 0 });
  await expect(log.getByText("after the pause")).toHaveCount(0);
  await page.getByRole("button", { name: "Follow" }).click();
  await expect(log.getByText("after the pause")).toBeVisible();
  await expect.poll(() => kube.podLogFollowed(name)).toBe(true);
  kube.printLog(name, ["INFO streamed after following again"], { replica: 1 });
  await expect(log.getByText("streamed after following again")).toBeVisible();

  // A burst past the stream's bound (200 lines a second) is counted, not buffered; read again,
  // the page holds the newest 500 and loads older ones; a time range narrows the read.
  kube.printLog(
    name,
    Array.from({ length: 600 }, (_, i) => `INFO bulk line ${i}`),
    { replica: 0 },
  );
  await expect(page.getByText(/lines were printed faster than 200 a second/)).toBeVisible();
  await page.reload();
  await expect(log.getByText("bulk line 599", { exact: true })).toBeVisible();
  await expect(log.getByText("bulk line 0", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Load 500 older lines" }).click();
  await expect(log.getByText("bulk line 0", { exact: true })).toHaveCount(1);
  await page.getByLabel("Time range").selectOption("900");
  await expect(log.getByText("bulk line 0", { exact: true })).toHaveCount(0);
  await expect(log.getByText("bulk line 599", { exact: true })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log.getByText("bulk line 599", { exact: true })).toBeVisible();
  // Rows fit the box: the message wraps below time and replica, nothing scrolls sideways.
  expect(await log.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await auditPage(page, "deployment-logs-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await auditPage(page, "deployment-logs");

  // The page closed, the cluster's follow ends.
  await page.goto(`${server.url}/deployments/${id}`);
  await expect.poll(() => kube.podLogFollowed(name)).toBe(false);
});

test("in dry run the Logs tab says nothing is running", async ({ page }) => {
  await signIn(page, state.admin);
  const id = await createDeployment(page, "runtime-logs-dry");
  await waitForRevision(page, id, 1, "DEPLOYED");
  const revision = await latestRevisionId(page, id);
  await page.goto(`/deployments/${id}/logs`);
  await expect(
    page.getByText(
      /Hangar runs in dry run \(no cluster is configured\), so no agent server was started/,
    ),
  ).toBeVisible();
  // No API path: a link to the revision's log, and filters off with the reason.
  await expect(page.getByText("/deploy_logs")).toHaveCount(0);
  await expect(
    page.getByRole("link", { name: /Open the build and deploy log of revision 1/ }),
  ).toHaveAttribute("href", `/deployments/${id}/revisions/${revision}`);
  await expect(page.getByLabel("Search the log")).toBeDisabled();
  await expect(page.getByLabel("Level")).toBeDisabled();
  await expect(
    page.getByText("Nothing is running, so there is nothing to search or filter."),
  ).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await auditPage(page, "deployment-logs-nothing-running");
  await page.goto(`/deployments/${id}`);
  await expect(page.getByTestId("runtime-summary")).toContainText(
    "Dry run: no cluster is configured, so nothing runs",
  );
});

test("a crash-looping container shows a banner saying what the lines are", async ({ page }) => {
  await signIn(page, state.admin);
  const name = "runtime-logs-crash";
  const id = await createDeployment(page, name);
  await waitForRevision(page, id, 1, "DEPLOYED");
  await runOnCluster(id, name);
  // A worker with the cluster watches its health (the run's own worker has no cluster). It
  // starts after the deploy, so it takes no job of this run's; its queue poll is slow besides.
  const worker = await startWorkerProcess({
    ...(JSON.parse(process.env.E2E_SERVER_ENV!) as Record<string, string>),
    HANGAR_KUBECONFIG: kube.kubeconfig(),
    HANGAR_QUEUE_POLL_SECONDS: "3600",
    HANGAR_HEALTH_RESYNC_SECONDS: "1",
  });
  try {
    kube.printLog(name, ["INFO starting", "CRITICAL out of memory"]);
    kube.crashLoop(name, "OOMKilled");
    await page.goto(`${server.url}/deployments/${id}/logs`);
    const banner = page.getByTestId("crash-loop-banner");
    await expect(banner).toContainText("The agent server keeps crashing", { timeout: 30_000 });
    await expect(banner).toContainText("last exit: out of memory, exit 137");
    await expect(banner).toContainText("current run and the run before it");
    const log = page.getByRole("log", { name: "Runtime log" });
    await expect(log.getByText("out of memory").first()).toBeVisible();
    await expect(log.getByText("prev").first()).toBeVisible();
    await auditPage(page, "deployment-logs-crash-loop");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(banner).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await auditPage(page, "deployment-logs-crash-loop-390");
  } finally {
    await worker.stop();
  }
});
