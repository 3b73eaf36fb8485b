import { createDeployment, patchDeployment, setRevisionStatus, toast } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test("redeploy an older revision after confirming; revision N+1 appears", async ({ page }) => {
  await signIn(page, state.admin);
  const id = await createDeployment(page, "redeploy-me");
  await patchDeployment(page, id, {
    source_revision_config: { image_uri: "registry.example.com/agents/redeploy-me:2.0" },
  });
  await page.goto(`/deployments/${id}/revisions`);
  const rows = page.getByRole("table", { name: "Revisions" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  // The latest revision has nothing to roll back to.
  await expect(page.getByRole("button", { name: "Redeploy revision #2" })).toHaveCount(0);

  await page.getByRole("button", { name: "Redeploy revision #1" }).click();
  const dialog = page.getByRole("dialog", { name: "Redeploy revision #1?" });
  await expect(dialog.getByRole("button", { name: "Redeploy" })).toBeFocused();
  await auditPage(page, "revision-redeploy-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  await page.getByRole("button", { name: "Redeploy revision #1" }).click();
  await dialog.getByRole("button", { name: "Redeploy" }).click();
  await expect(toast(page, "Redeploying revision #1 as revision #3")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/deployments/${id}/revisions/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { name: "Revision #3" })).toBeVisible();
  await expect(page.getByText("registry.example.com/agents/redeploy-me:1.0")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Logs" })).toBeVisible();
  await auditPage(page, "revision");

  await page.getByRole("link", { name: "All revisions" }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("#3");
});

test("statuses update without a reload, and the list filters by status", async ({ page }) => {
  await signIn(page, state.admin);
  const id = await createDeployment(page, "live-status");
  await patchDeployment(page, id, {
    source_revision_config: { image_uri: "registry.example.com/agents/live-status:2.0" },
  });
  await setRevisionStatus(id, 1, "SKIPPED");
  await page.goto(`/deployments/${id}/revisions`);
  const rows = page.getByRole("table", { name: "Revisions" }).locator("tbody tr");
  await expect(rows.first()).toContainText("Queued");

  await setRevisionStatus(id, 2, "BUILDING");
  await expect(rows.first()).toContainText("Building");
  await setRevisionStatus(id, 2, "DEPLOYED");
  await expect(rows.first()).toContainText("Deployed");
  await expect(page.getByRole("link", { name: /Latest revision #2/ })).toContainText("Deployed");

  await page.getByLabel("Status").selectOption("SKIPPED");
  await expect(page).toHaveURL(/status=SKIPPED/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("#1");
  await page.getByLabel("Status").selectOption("BUILD_FAILED");
  await expect(page.getByRole("heading", { name: "No revisions with this status" })).toBeVisible();
  await auditPage(page, "deployment-revisions-empty-filter");
  await page.getByRole("button", { name: "Show all statuses" }).click();
  await expect(rows).toHaveCount(2);
});

test("a viewer cannot edit settings, secrets, tags or redeploy; the server refuses too", async ({
  page,
}) => {
  await signIn(page, state.viewer);
  const id = state.deployments["billing-bot"]!;
  await page.goto(`/deployments/${id}/settings`);
  await expect(
    page.getByText("Read-only: viewers cannot change or delete deployments."),
  ).toBeVisible();
  await expect(page.getByLabel("Image")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
  await auditPage(page, "deployment-settings-viewer");

  await page.getByRole("link", { name: "Secrets", exact: true }).click();
  await expect(page.getByRole("button", { name: "Paste .env" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add secret" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Remove/ })).toHaveCount(0);

  await page.getByRole("link", { name: "Tags", exact: true }).click();
  await expect(page.getByLabel("team")).toBeDisabled();
  await page.getByRole("link", { name: "Revisions", exact: true }).click();
  await expect(page.getByRole("table", { name: "Revisions" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Redeploy/ })).toHaveCount(0);

  const patch = await page.request.post("/api/trpc/deployments.patch", {
    data: { json: { id, patch: { source_config: { custom_url: "https://viewer.example.com" } } } },
  });
  expect(patch.status()).toBe(403);
  const list = await page.request.get(`/v2/deployments/${id}/revisions`);
  const first = ((await list.json()) as { resources: { id: string }[] }).resources[0]!;
  const redeploy = await page.request.post("/api/trpc/revisions.redeploy", {
    data: { json: { deploymentId: id, revisionId: first.id } },
  });
  expect(redeploy.status()).toBe(403);
});
