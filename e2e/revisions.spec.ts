import type { Page } from "@playwright/test";
import {
  createDeployment,
  engineGate,
  latestRevisionId,
  patchDeployment,
  toast,
} from "./deployment-helpers";
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

  // Each revision's id is shown whole, linked to its page, and copies (the newest row is #2).
  const second = await latestRevisionId(page, id);
  const chip = rows.first().getByRole("link", { name: second, exact: true });
  await expect(chip).toHaveAttribute("href", `/deployments/${id}/revisions/${second}`);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await rows.first().getByRole("button", { name: "Copy revision #2 ID" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(second);
  // So is the deployment's, beside its name.
  await expect(page.getByRole("link", { name: id, exact: true })).toBeVisible();

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
  await expect(page.getByRole("heading", { name: "Revision #3", exact: true })).toBeVisible();
  const third = new URL(page.url()).pathname.split("/").at(-1)!;
  await expect(page.getByRole("link", { name: third, exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Copy revision #3 ID" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(third);
  // The configuration shows the image on its own (log lines mention it too, among other words).
  await expect(
    page.getByText("registry.example.com/agents/redeploy-me:1.0", { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Logs" })).toBeVisible();
  await auditPage(page, "revision");

  await page.getByRole("link", { name: "All revisions" }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("#3");
});

const revisionRows = (page: Page) =>
  page.getByRole("table", { name: "Revisions" }).locator("tbody tr");
/** The page's title: the deployment's name and its status badge. */
const deploymentStatus = (page: Page) => page.getByRole("heading", { level: 1 });
const inProgress = /Queued|Awaiting build|Building|Awaiting deploy|Deploying/;

test("a new revision's log streams in while the engine runs it, then shows its end", async ({
  page,
}) => {
  await signIn(page, state.admin);
  // Its deploy waits at the engine's gate until the page has shown the revision live.
  const gate = engineGate("live-logs");
  await gate.hold();
  const id = await createDeployment(page, "live-logs");
  await page.goto(`/deployments/${id}/revisions/${await latestRevisionId(page, id)}`);
  await expect(deploymentStatus(page)).toContainText("Deploying #1");
  const log = page.getByRole("log", { name: "Log of revision #1" });
  const logCard = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Logs" }) });

  // Lines arrive while the revision is still deploying (held at the gate).
  await expect(log).toContainText("Revision 1 admitted (internal_container)");
  await expect(log).toContainText("Deploying registry.example.com/agents/live-logs:1.0 (record)");
  await expect(logCard.getByText("Live", { exact: true })).toBeVisible();
  await expect(log).not.toContainText("Revision 1 deployed");
  await expect(log).toHaveAttribute("aria-live", "polite");
  await expect(log.locator("time").first()).toHaveText(/^\d\d:\d\d:\d\d$/);
  await expect(log.getByText("build", { exact: true }).first()).toBeVisible();
  await auditPage(page, "revision-logs-live");
  await gate.release();

  // Then the end: the last lines, the final status in the log's header and on the page.
  await expect(log).toContainText("Revision 1 deployed", { timeout: 30_000 });
  await expect(log.getByText("deploy", { exact: true }).first()).toBeVisible();
  await expect(logCard.getByText("Finished", { exact: true })).toBeVisible();
  // A dry run recorded the revision; no badge calls it deployed.
  await expect(logCard.getByText("Recorded (dry run)", { exact: true })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(/\bDeployed\b/);
  await expect(logCard.getByText("Live", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Revision #1", exact: true })).toBeVisible();
  await expect(deploymentStatus(page)).toContainText("Dry run, revision #1");
  await expect(page.getByRole("button", { name: "Interrupt revision #1" })).toHaveCount(0);
  await auditPage(page, "revision-logs-finished");

  // A finished revision's page replays the whole log and ends at once.
  await page.reload();
  await expect(log).toContainText("Revision 1 admitted");
  await expect(log).toContainText("Revision 1 deployed");
  await expect(logCard.getByText("Finished", { exact: true })).toBeVisible();
});

test("statuses update without a reload as the engine deploys a new revision", async ({ page }) => {
  await signIn(page, state.admin);
  const gate = engineGate("live-status");
  await gate.hold();
  const id = await createDeployment(page, "live-status");
  await page.goto(`/deployments/${id}/revisions`);
  const rows = revisionRows(page);
  await expect(rows.first()).toContainText(inProgress);
  await expect(deploymentStatus(page)).toContainText("Deploying #1");
  await gate.release();
  await expect(rows.first()).toContainText("Recorded (dry run)", { timeout: 30_000 });
  await expect(rows.first()).not.toContainText("Deployed");
  await expect(rows.first()).toContainText("Active");
  // No cluster and no builder are configured here: the deployment and every page say nothing
  // runs and nothing is built.
  await expect(deploymentStatus(page)).toContainText("Dry run, revision #1");
  const notice = page.getByRole("note", { name: "Dry run" });
  await expect(notice).toContainText("No cluster is configured");
  await expect(notice).toContainText("no image builder (HANGAR_BUILDER)");
  await expect(notice).toContainText("builds are a dry run");

  // Cut revision #2 through the settings tab and come back, all without loading a page.
  await gate.hold();
  const sections = page.getByRole("navigation", { name: "Deployment sections" });
  await sections.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Image").fill("registry.example.com/agents/live-status:2.0");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Saved: revision #2 was cut")).toBeVisible();
  await sections.getByRole("link", { name: "Revisions" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("#2");
  await expect(rows.first()).toContainText(inProgress);
  await expect(rows.nth(1)).toContainText("Active");
  await expect(page.getByRole("link", { name: /Latest revision #2/ })).toContainText(inProgress);

  // The active revision moves only once #2 is deployed.
  await gate.release();
  await expect(rows.first()).toContainText("Recorded (dry run)", { timeout: 30_000 });
  await expect(rows.first()).toContainText("Active");
  await expect(rows.nth(1)).not.toContainText("Active");
  await expect(page.getByRole("link", { name: /Latest revision #2/ })).toContainText(
    "Recorded (dry run)",
  );
  await expect(page.getByRole("link", { name: /Latest revision #2/ })).not.toContainText(
    "Deployed",
  );
  await expect(deploymentStatus(page)).toContainText("Dry run, revision #2");
});

test("interrupt a running revision from the list and from its page; filter by status", async ({
  page,
}) => {
  await signIn(page, state.admin);
  // Both revisions stay unfinished at the gate until interrupted.
  const gate = engineGate("interrupt-me");
  await gate.hold();
  const id = await createDeployment(page, "interrupt-me");
  await page.goto(`/deployments/${id}/revisions`);
  const rows = revisionRows(page);
  await page.getByRole("button", { name: "Interrupt revision #1" }).click();
  const dialog = page.getByRole("dialog", { name: "Interrupt revision #1?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Interrupt" }).click();
  await expect(toast(page, "Interrupted revision #1")).toBeVisible();
  await expect(rows.first()).toContainText("Interrupted");
  await expect(page.getByRole("button", { name: "Interrupt revision #1" })).toHaveCount(0);
  await expect(deploymentStatus(page)).toContainText("Interrupted #1");

  // Revision #2, interrupted on its own page while its log is live.
  await patchDeployment(page, id, {
    source_revision_config: { image_uri: "registry.example.com/agents/interrupt-me:2.0" },
  });
  await page.goto(`/deployments/${id}/revisions/${await latestRevisionId(page, id)}`);
  const logCard = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Logs" }) });
  await expect(logCard.getByText("Live", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Interrupt revision #2" }).click();
  await page
    .getByRole("dialog", { name: "Interrupt revision #2?" })
    .getByRole("button", { name: "Interrupt" })
    .click();
  await expect(toast(page, "Interrupted revision #2")).toBeVisible();
  await expect(page.getByRole("log", { name: "Log of revision #2" })).toContainText(
    "Interrupted by a user.",
  );
  await expect(logCard.getByText("Finished", { exact: true })).toBeVisible();
  await expect(logCard.getByText("Interrupted", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Interrupt revision #2" })).toHaveCount(0);
  await auditPage(page, "revision-interrupted");
  await gate.release();

  await page.getByRole("link", { name: "All revisions" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Status", { exact: true }).selectOption("INTERRUPTED");
  await expect(page).toHaveURL(/status=INTERRUPTED/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Status", { exact: true }).selectOption("DEPLOYED");
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
    data: { id, patch: { source_config: { custom_url: "https://viewer.example.com" } } },
  });
  expect(patch.status()).toBe(403);
  const list = await page.request.get(`/v2/deployments/${id}/revisions`);
  const first = ((await list.json()) as { resources: { id: string }[] }).resources[0]!;
  const redeploy = await page.request.post("/api/trpc/revisions.redeploy", {
    data: { deploymentId: id, revisionId: first.id },
  });
  expect(redeploy.status()).toBe(403);
});
