import pg from "pg";
import { startFakeKubeApi, type FakeKubeApi } from "../testing/fake-kube-api";
import { startListenerProcess, type RunningListener } from "../testing/listener";
import { waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The Logs tab of a deployment on a listener (issue 34): on the run's self-hosted server, a real
// listener process (scripts/listener.ts) applies the deployment to its own cluster (the fake
// Kubernetes API) and, while the tab is open, follows that cluster's log and posts the lines:
// they stream in like a managed cluster's, and the follow ends in the listener's cluster when the
// viewer leaves. Everything it made is deleted afterwards, pass or fail (the listeners spec
// starts from none).

const selfHosted = process.env.E2E_SELF_HOSTED_URL!;
test.use({ baseURL: selfHosted });

let kube: FakeKubeApi;
let listener: RunningListener | undefined;
let listenerId: string | undefined;

test.beforeAll(async () => {
  kube = await startFakeKubeApi();
});
test.afterAll(async () => {
  await listener?.stop();
  await kube?.stop();
  if (!listenerId) return;
  const db = new pg.Client({
    connectionString: (JSON.parse(process.env.E2E_SERVER_ENV!) as { DATABASE_URL: string })
      .DATABASE_URL,
  });
  await db.connect();
  await db.query(`DELETE FROM deployments WHERE listener_id = $1`, [listenerId]);
  await db.query(`DELETE FROM listeners WHERE id = $1`, [listenerId]);
  await db.end();
});

test("a listener deployment's lines stream into the Logs tab while it is open", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const made = await page.request.post("/v2/listeners", {
    data: {
      compute_type: "k8s",
      compute_id: "e2e-logs-cluster",
      compute_config: { k8s_namespaces: ["agents"] },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { id, token } = (await made.json()) as { id: string; token: string };
  listenerId = id;
  listener = await startListenerProcess({
    HANGAR_URL: selfHosted,
    HANGAR_LISTENER_TOKEN: token,
    KUBECONFIG: kube.kubeconfig(),
    HANGAR_ROLLOUT_POLL_SECONDS: "0.2",
    HANGAR_ROLLOUT_TIMEOUT_SECONDS: "60",
  });
  const name = "e2e-listener-logs";
  const created = await page.request.post("/v2/deployments", {
    data: {
      name,
      source: "external_container",
      source_config: { listener_id: id, listener_config: { k8s_namespace: "agents" } },
      source_revision_config: { image_uri: `registry.example.com/agents/${name}:1.0` },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deploymentId = ((await created.json()) as { id: string }).id;
  await waitForRevision(page, deploymentId, 1, "DEPLOYED");

  const streamed = page.waitForResponse((r) =>
    r.url().includes(`/v2/deployments/${deploymentId}/logs/stream`),
  );
  await page.goto(`/deployments/${deploymentId}/logs`);
  await expect(page.getByRole("heading", { name: "Logs", exact: true })).toBeVisible();
  expect((await streamed).status()).toBe(200);
  // Streamed, not read again every 2 s: the tab does not say it polls.
  await expect(page.getByText(/Read by listener e2e-logs-cluster/)).toBeVisible();
  await expect(page.getByText(/reading again every 2 s/)).toHaveCount(0);
  await expect.poll(() => kube.podLogFollowed(name), { timeout: 20_000 }).toBe(true);

  kube.printLog(name, ["INFO remote startup complete", "ERROR remote graph failed: boom"]);
  const log = page.getByRole("log", { name: "Runtime log" });
  await expect(log.getByText("remote startup complete").first()).toBeVisible();
  await expect(log.getByText("remote graph failed: boom").first()).toBeVisible();
  await auditPage(page, "deployment-logs-listener");

  // Paused, the follow in the listener's cluster ends; following again, it starts again.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect.poll(() => kube.podLogFollowed(name), { timeout: 20_000 }).toBe(false);
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect.poll(() => kube.podLogFollowed(name), { timeout: 20_000 }).toBe(true);
  kube.printLog(name, ["INFO after resuming"]);
  await expect(log.getByText("after resuming").first()).toBeVisible();

  // Leaving the page ends it too.
  await page.goto("/deployments");
  await expect.poll(() => kube.podLogFollowed(name), { timeout: 20_000 }).toBe(false);
});
