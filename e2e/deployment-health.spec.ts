import type { Page } from "@playwright/test";
import pg from "pg";
import { startCodehostServer, type CodehostServer } from "../testing/codehost-server";
import { startFakeKubeApi, type FakeKubeApi } from "../testing/fake-kube-api";
import { startWorkerProcess, type RunningWorker } from "../testing/server";
import { createDeployment, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// One health truth (issue 34): a deployment runs on the fake Kubernetes API (its server and
// queue of revision 1, and the Redis Hangar runs beside them) and the worker's real health watch
// (testing/health-watcher.ts) judges it. A crash loop reads the same in the header, the list, the
// Status field and Running: Unhealthy in red with the reason in plain words, said once; per
// component; events as timed lines, marked past once it recovers.

const NAMESPACE = "e2e-health";
let kube: FakeKubeApi;
let watcher: RunningWorker;

test.beforeAll(async () => {
  kube = await startFakeKubeApi();
  watcher = await startWorkerProcess(
    {
      ...(JSON.parse(process.env.E2E_SERVER_ENV!) as Record<string, string>),
      HANGAR_KUBECONFIG: kube.kubeconfig(),
    },
    { entry: "testing/health-watcher.ts" },
  );
});
test.afterAll(async () => {
  await watcher?.stop();
  await kube?.stop();
});

/** What the Kubernetes deployer leaves: the revision's server and queue, and Redis beside them. */
async function runOnCluster(id: string, name: string) {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  const objects = (
    [
      ["server", name, { "hangar.dev/revision": "1" }],
      ["queue", `${name}-queue`, { "hangar.dev/revision": "1" }],
      ["redis", `${name}-redis`, {}],
    ] as const
  ).map(([component, objectName, revision]) => {
    const labels = {
      "app.kubernetes.io/component": component,
      "app.kubernetes.io/managed-by": "hangar",
      "hangar.dev/deployment-id": id,
      ...revision,
    };
    return {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: objectName, namespace: NAMESPACE, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: component, image: `registry.example.com/${component}:1` }] },
        },
      },
    };
  });
  await db.query(`UPDATE deployments SET runtime = 'kubernetes', status = 'READY' WHERE id = $1`, [
    id,
  ]);
  await db.query(
    `UPDATE revisions SET runtime = 'kubernetes', manifests = $2 WHERE deployment_id = $1`,
    [id, JSON.stringify(objects)],
  );
  await db.end();
  for (const object of objects) {
    const res = await fetch(
      `${kube.url}/apis/apps/v1/namespaces/${NAMESPACE}/deployments/${object.metadata.name}?fieldManager=hangar`,
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
  }
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const field = (page: Page, label: string) =>
  page
    .locator("dt", { hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");
const REASON = /^Crashing: out of memory, exit 137 — \d+ restarts?$/;

test("a crash loop reads unhealthy in red everywhere with its reason in words, and recovers", async ({
  page,
}) => {
  // A cluster, two viewports and three audits in both themes: one long scenario.
  test.slow();
  await signIn(page, state.admin);
  const name = "health-e2e";
  const id = await createDeployment(page, name);
  await waitForRevision(page, id, 1, "DEPLOYED");
  await runOnCluster(id, name);

  await page.goto(`/deployments/${id}`);
  const running = field(page, "Running");
  await expect(running.getByText("Healthy", { exact: true })).toBeVisible({ timeout: 20_000 });
  // The server and queue counted apart from the Redis beside them.
  await expect(running.getByTestId("runtime-summary")).toHaveText(
    "Server 1/1 · Queue 1/1 · Redis ready",
  );
  await expect(heading(page)).toContainText("Live, revision #1");

  // The server crash-loops, out of memory: live, without a reload.
  kube.crashLoop(name, "OOMKilled");
  await expect(heading(page)).toContainText("Unhealthy", { timeout: 20_000 });
  const status = field(page, "Status");
  await expect(status.getByText("Unhealthy", { exact: true })).toBeVisible();
  await expect(status.getByTestId("status-reason")).toHaveText(REASON);
  await expect(running.getByText("Unhealthy", { exact: true })).toBeVisible();
  await expect(running.getByTestId("runtime-summary")).toHaveText(
    "Server 0/1 · Queue 1/1 · Redis ready",
  );
  // Said once, and never in Kubernetes' words.
  await expect(page.getByText(/out of memory/)).toHaveCount(1);
  await expect(page.getByText(/OOMKilled|CrashLoopBackOff/)).toHaveCount(0);
  // Red: the badges use the red tone.
  await expect(heading(page).getByText("Unhealthy")).toHaveClass(/text-red-800/);
  // Events: short timed lines, no pod names or uids.
  const warnings = running.getByRole("list", { name: "Warnings" });
  await expect(warnings.getByRole("listitem").first()).toHaveText(
    /^\d\d:\d\d:\d\d · Back-off restarting the failed container$/,
  );
  await expect(warnings).not.toContainText(name);

  await page.setViewportSize({ width: 1280, height: 900 });
  await auditPage(page, "overview-crash-loop");

  // The list agrees: Unhealthy in red, with the same words.
  await page.goto(`/deployments?name_contains=${name}`);
  const row = page.getByRole("table", { name: "Deployments" }).locator("tbody tr").first();
  await expect(row.getByText("Unhealthy", { exact: true })).toHaveClass(/text-red-800/);
  await expect(row.getByText(REASON)).toBeVisible();
  await auditPage(page, "deployments-crash-loop");

  // At 390 px the overview says the same and nothing overflows.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/deployments/${id}`);
  await expect(heading(page)).toContainText("Unhealthy");
  await expect(field(page, "Status").getByTestId("status-reason")).toHaveText(REASON);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await auditPage(page, "overview-crash-loop-narrow");

  // It recovers: green everywhere, the old warnings marked past.
  kube.heal(name);
  await expect(heading(page)).toContainText("Live, revision #1", { timeout: 20_000 });
  await expect(running.getByText("Healthy", { exact: true })).toBeVisible();
  await expect(running.getByTestId("runtime-summary")).toContainText(
    "Server 1/1 · Queue 1/1 · Redis ready",
  );
  await expect(page.getByTestId("status-reason")).toHaveCount(0);
  const past = running.getByRole("list", { name: "Warnings before recovery" });
  await expect(past.getByRole("listitem").first()).toContainText("(before recovery)");
  await page.setViewportSize({ width: 1280, height: 900 });
  await auditPage(page, "overview-recovered");
});

test("a failed preview says why, names its commit and links its build log, near the top", async ({
  page,
}) => {
  test.slow();
  const SECRET = "whsec-e2e-health-0123456789";
  const host: CodehostServer = await startCodehostServer();
  await signIn(page, state.admin);
  const integration = await page.request.post("/v1/integrations/codehost", {
    data: {
      name: "health previews host",
      api_base_url: host.url,
      token: "codehost-dev-token",
      webhook_secret: SECRET,
    },
  });
  expect(integration.status(), await integration.text()).toBe(201);
  const integrationId = ((await integration.json()) as { id: string }).id;
  host.pulls.addWebhook(`${state.baseUrl}/v1/webhooks/codehost/${integrationId}`, SECRET);
  const created = await page.request.post("/v2/deployments", {
    data: {
      name: "health-previews",
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${host.url}/acme/support-bot`,
        build_on_push: true,
        previews: { enabled: true, max_open: 3 },
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const parentId = ((await created.json()) as { id: string }).id;
  let previewId: string | null = null;
  try {
    await page.goto(`/deployments/${parentId}`);
    await expect(page.getByTestId("previews-webhook")).toHaveText(
      "Pull-request webhook: no delivery has arrived yet.",
    );
    // A pull request whose head has no langgraph.json: its preview fails building.
    const { pr, deliveries } = await host.pulls.open({
      repo: "acme/support-bot",
      title: "Drop the config",
      author: "bob",
      head: "drop-config",
      files: { "README.md": "no graph here\n" },
    });
    expect(deliveries[0]!.status).toBe(202);
    previewId = deliveries[0]!.body.previews[0]!.preview_id!;
    await waitForRevision(page, previewId, 1, "BUILD_FAILED");

    await expect(page.getByTestId("previews-webhook")).toContainText(
      "Pull-request webhook: receiving, last delivery",
    );
    const item = page.getByRole("list", { name: "Previews" }).getByRole("listitem");
    await expect(item).toHaveCount(1);
    await expect(item.getByText("Failed", { exact: true })).toBeVisible();
    await expect(item.getByText(/^Revision #1 build failed: .+/)).toBeVisible();
    await expect(
      item.getByRole("link", { name: `Commit ${pr.headSha.slice(0, 7)} on the code host` }),
    ).toHaveAttribute("href", `${host.url}/acme/support-bot/commit/${pr.headSha}`);
    const log = item.getByRole("link", { name: "Build log of revision #1" });
    await expect(log).toHaveAttribute(
      "href",
      new RegExp(`^/deployments/${previewId}/revisions/[0-9a-f-]{36}$`),
    );
    // Near the top: the Previews card comes before the Source card.
    const titles = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(titles.indexOf("Previews")).toBeGreaterThan(-1);
    expect(titles.indexOf("Previews")).toBeLessThan(titles.indexOf("Source"));
    await auditPage(page, "previews-failed");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(item.getByText(/^Revision #1 build failed: .+/)).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await auditPage(page, "previews-failed-narrow");
    await log.click();
    await expect(page.getByRole("heading", { name: "Revision #1", exact: true })).toBeVisible();
  } finally {
    // The import wizard's spec expects no integration: leave none behind.
    for (const id of [previewId, parentId].filter((x): x is string => !!x)) {
      expect((await page.request.delete(`/v2/deployments/${id}`)).status()).toBe(204);
      await expect
        .poll(async () => (await page.request.get(`/v2/deployments/${id}`)).status(), {
          timeout: 30_000,
        })
        .toBe(404);
    }
    const res = await page.request.delete(`/v1/integrations/codehost/${integrationId}`);
    expect(res.status(), await res.text()).toBe(204);
    await host.stop();
  }
});
