import { auditPage, expect, signIn, state, test } from "./fixtures";

// Settings → Listeners on the run's self-hosted server (e2e/global-setup.ts): a listener from
// creation (its token shown once) to deletion, with a deployment assigned to it in between. The
// listener itself is played by calls to the listener protocol with its token.

const selfHosted = process.env.E2E_SELF_HOSTED_URL!;
test.use({ baseURL: selfHosted });

const protocol = (token: string, path: string, body: object) =>
  fetch(`${selfHosted}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test("create, edit, see online, assign, filter, and delete a listener", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/settings/listeners");
  await expect(page.getByText("No listeners")).toBeVisible();

  // Created: the token is shown once, with a copy button.
  await page.getByRole("button", { name: "Create listener" }).click();
  await page.getByLabel("Cluster id").fill("e2e-cluster");
  await page.getByLabel("Namespaces").fill("agents");
  await page.getByRole("button", { name: "Create listener" }).last().click();
  const dialog = page.getByRole("dialog", { name: "Your listener's token" });
  await expect(dialog).toContainText("It is shown only once");
  const token = await dialog.getByLabel("Token for e2e-cluster").inputValue();
  expect(token).toMatch(/^hgl_/);
  await expect(dialog.getByRole("button", { name: "Copy token" })).toBeVisible();
  await auditPage(page, "settings-listener-token");
  await dialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row", { name: /e2e-cluster/ });
  await expect(row).toContainText("Offline");
  await expect(row).toContainText("Never");

  // Its namespaces edited.
  await page.getByRole("button", { name: "Edit e2e-cluster" }).click();
  await page.getByLabel("Namespaces").fill("agents, tools");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("agents, tools");

  // Its first poll: online.
  const poll = await protocol(token, "/v2/listener/work", { replica_id: "e2e", wait_seconds: 0 });
  expect(await poll.json()).toEqual({ work: null });
  await page.reload();
  await expect(row).toContainText("Online");
  await auditPage(page, "settings-listeners");

  // A deployment assigned to it names it on its overview and in the list's filter.
  const created = await page.request.post("/v2/deployments", {
    data: {
      name: "e2e-remote",
      source: "external_container",
      source_config: { listener_id: (await listenerId(page)) as string },
      source_revision_config: { image_uri: "registry.example.com/agents/e2e-remote:1.0" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deploymentId = ((await created.json()) as { id: string }).id;
  await page.goto(`/deployments/${deploymentId}`);
  await expect(page.getByRole("link", { name: "e2e-cluster" })).toBeVisible();
  await expect(page.getByText("(online)")).toBeVisible();

  await page.goto("/deployments");
  await page.getByLabel("Remote reconciled").selectOption("true");
  await expect(page).toHaveURL(/remote_reconciled=true/);
  await expect(page.getByRole("link", { name: "e2e-remote" })).toBeVisible();
  await expect(page.getByRole("link", { name: "support-agent", exact: true })).toHaveCount(0);

  // In use: deleting it is refused with the reason.
  await page.goto("/settings/listeners");
  await page.getByRole("button", { name: "Delete e2e-cluster" }).click();
  await page.getByRole("button", { name: "Delete listener" }).click();
  await expect(
    page.getByText(/is used by 1 deployment; delete or reassign them first/),
  ).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();

  // The deployment is deleted through its listener: it removes the objects, then reports.
  expect((await page.request.delete(`/v2/deployments/${deploymentId}`)).status()).toBe(204);
  const work = (await (
    await protocol(token, "/v2/listener/work", { replica_id: "e2e", wait_seconds: 0 })
  ).json()) as { work: { action: string; deployment_id: string } };
  expect(work.work).toMatchObject({ action: "delete", deployment_id: deploymentId });
  const report = await protocol(token, `/v2/listener/deployments/${deploymentId}/reports`, {
    replica_id: "e2e",
    report_id: "deleted",
    status: "DELETED",
  });
  expect(report.status).toBe(200);
  expect((await page.request.get(`/v2/deployments/${deploymentId}`)).status()).toBe(404);

  // Unused now: deleted after the confirmation; its token stops working.
  await page.getByRole("button", { name: "Delete e2e-cluster" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete listener" });
  await expect(confirm).toContainText("e2e-cluster");
  await confirm.getByRole("button", { name: "Delete listener" }).click();
  await expect(page.getByText("Deleted e2e-cluster: its token no longer works")).toBeVisible();
  await expect(row).toHaveCount(0);
  const revoked = await protocol(token, "/v2/listener/work", {
    replica_id: "e2e",
    wait_seconds: 0,
  });
  expect(revoked.status).toBe(401);
});

/** The listener's id, read through the API with the signed-in session. */
async function listenerId(page: import("@playwright/test").Page) {
  const res = await page.request.get("/v2/listeners");
  const { resources } = (await res.json()) as { resources: { id: string; compute_id: string }[] };
  return resources.find((l) => l.compute_id === "e2e-cluster")?.id;
}
