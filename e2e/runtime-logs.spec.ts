import pg from "pg";
import { startFakeKubeApi, type FakeKubeApi } from "../testing/fake-kube-api";
import { startServer, type RunningServer } from "../testing/server";
import { createDeployment, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The Logs tab (issue 25): a server with a cluster (the fake Kubernetes API) on the run's
// database, and a deployment in the state a Kubernetes deploy leaves (its revision's objects
// applied to the cluster in namespace e2e-agents, runtime kubernetes). Lines its pods print while
// the page is open arrive; filters and pause work; at 390 px it stays readable.

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
  await page.goto(`${server.url}/deployments/${id}/logs`);
  await expect(page.getByRole("heading", { name: "Logs", exact: true })).toBeVisible();
  await expect(page.getByText("Nothing printed yet.")).toBeVisible();
  await expect(page.getByText(/Hangar keeps no copy/)).toBeVisible();

  kube.printLog(name, ["INFO Application startup complete", "ERROR graph failed: boom"]);
  const log = page.getByRole("log", { name: "Runtime log" });
  await expect(log.getByText("Application startup complete").first()).toBeVisible();
  await expect(log.getByText("graph failed: boom")).toHaveCount(2);

  // Level filter, search, replica.
  await page.getByLabel("Level").selectOption("ERROR");
  await expect(log.getByText("Application startup complete")).toHaveCount(0);
  await expect(log.getByText("graph failed: boom")).toHaveCount(2);
  await page.getByLabel("Level").selectOption("");
  await page.getByLabel("Search the log").fill("startup");
  await expect(log.getByText("graph failed: boom")).toHaveCount(0);
  await page.getByLabel("Search the log").fill("");
  const replicas = page.getByLabel("Replica").locator("option");
  await expect(replicas).toHaveCount(3);
  await page.getByLabel("Replica").selectOption({ index: 1 });
  await expect(log.getByText("graph failed: boom")).toHaveCount(1);
  await page.getByLabel("Replica").selectOption("");

  // Paused, new lines wait; following again, they arrive.
  await page.getByRole("button", { name: "Pause" }).click();
  kube.printLog(name, ["INFO after the pause"], { replica: 0 });
  await page.waitForTimeout(3_000);
  await expect(log.getByText("after the pause")).toHaveCount(0);
  await page.getByRole("button", { name: "Follow" }).click();
  await expect(log.getByText("after the pause")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe(`logs-${id}.txt`);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log.getByText("after the pause")).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await auditPage(page, "deployment-logs");
});

test("in dry run the Logs tab says nothing is running", async ({ page }) => {
  await signIn(page, state.admin);
  const id = await createDeployment(page, "runtime-logs-dry");
  await waitForRevision(page, id, 1, "DEPLOYED");
  await page.goto(`/deployments/${id}/logs`);
  await expect(
    page.getByText(
      /Hangar runs in dry run \(no cluster is configured\), so no agent server was started/,
    ),
  ).toBeVisible();
  await page.goto(`/deployments/${id}`);
  await expect(page.getByTestId("runtime-summary")).toContainText(
    "Dry run: no cluster is configured, so nothing runs",
  );
});
