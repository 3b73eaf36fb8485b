import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Page } from "@playwright/test";
import { createDeployment, latestRevisionId, toast, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, SCREENSHOTS, signIn, state, takeScreenshots, test } from "./fixtures";

// "Promote to…" on a revision: choose a target from the keyboard, see what changes and what
// stays (`repository@sha256:<short>` with its deployment and revision, before and after),
// confirm (a prod target by typing its name), land on the target's new revision running the
// same digest, which says where it was promoted from; its relative times keep moving.

/**
 * Marks a deployed revision as one that ran an image pushed to Hangar's registry (its digest
 * pinned). This run has no registry (registry.test.ts pushes and promotes for real); a
 * promoted revision with a known digest needs none, so everything after this row is real.
 */
async function markPushed(
  page: Page,
  deploymentId: string,
  name: string,
): Promise<{ digest: string; image: string }> {
  const digest = `sha256:${randomBytes(32).toString("hex")}`;
  const tenant = (
    (await (await page.request.get(`/v2/deployments/${deploymentId}`)).json()) as {
      tenant_id: string;
    }
  ).tenant_id;
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query(
      "UPDATE revisions SET image_ref = $1, image_digest = $2 WHERE deployment_id = $3 AND number = 1",
      [`registry.hangar.test:5000/${tenant}/${name}@${digest}`, digest, deploymentId],
    );
  } finally {
    await db.end();
  }
  return { digest, image: `registry.hangar.test:5000/${tenant}/${name}@${digest}` };
}

/** What the dialog shows for an image pinned by digest: repository@sha256:<12 hex>. */
const shortPinned = (image: string) => image.slice(0, image.indexOf("@") + 20);

test("promote a revision's image to another deployment", async ({ page }) => {
  await signIn(page, state.admin);
  const suffix = Date.now().toString(36);
  const devName = `promo-dev-${suffix}`;
  const prodName = `promo-prod-${suffix}`;
  const dev = await createDeployment(page, devName);
  const prod = await createDeployment(page, prodName, {
    secrets: [{ name: "PROD_TOKEN", value: "prod-only-value" }],
    resource_spec: { cpu: 2, memory_mb: 4096 },
  });
  await waitForRevision(page, dev, 1, "DEPLOYED");
  await waitForRevision(page, prod, 1, "DEPLOYED");
  const { digest, image } = await markPushed(page, dev, devName);

  await page.goto(`/deployments/${dev}/revisions/${await latestRevisionId(page, dev)}`);
  const open = page.getByRole("button", { name: "Promote revision #1 to another deployment" });
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Promote revision #1" });
  await expect(dialog).toBeVisible();
  // From the keyboard: the name filter has focus, Tab reaches the choice.
  await expect(dialog.getByLabel("Find a deployment")).toBeFocused();
  await page.keyboard.type(suffix);
  const target = dialog.getByLabel("Target deployment");
  await expect(target.locator("option", { hasText: prodName })).toHaveCount(1);
  await expect(target.locator("option", { hasText: devName })).toHaveCount(0);
  await page.keyboard.press("Tab");
  await expect(target).toBeFocused();
  await expect(dialog.getByRole("button", { name: "Promote", exact: true })).toBeDisabled();
  const choice = await target.locator("option", { hasText: prodName }).getAttribute("value");
  await target.selectOption(choice!);

  // What changes and what stays, before anything happens.
  const preview = dialog.getByRole("group", { name: "What will change" });
  await expect(preview.getByTestId("promote-from")).toHaveText(
    `registry.example.com/agents/${prodName}:1.0`,
  );
  await expect(preview.getByTestId("promote-from-origin")).toHaveText(
    `Now: ${prodName} · revision #1`,
  );
  await expect(preview.getByTestId("promote-to")).toHaveText(shortPinned(image));
  await expect(preview.getByTestId("promote-to")).toHaveAttribute("title", image);
  await expect(preview.getByTestId("promote-to-origin")).toHaveText(
    `After: from ${devName} · revision #1`,
  );
  // Not a production deployment: no name to type.
  await expect(dialog.getByLabel(`Type ${prodName} to confirm`)).toHaveCount(0);
  await expect(preview).toContainText("nothing is rebuilt");
  await expect(preview).toContainText("Secrets: PROD_TOKEN");
  await expect(preview).not.toContainText("prod-only-value");
  await expect(preview).toContainText("its own resource spec");
  // A digest wraps inside the dialog rather than running out of it.
  expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await auditPage(page, "revision-promote");

  await dialog.getByRole("button", { name: `Promote to ${prodName}` }).click();
  await expect(toast(page, `Promoted revision #1 to ${prodName}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/deployments/${prod}/revisions/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { name: "Revision #2", exact: true })).toBeVisible();
  await expect(page.getByText(digest, { exact: true })).toBeVisible();
  await expect(page.getByTestId("promoted-from")).toHaveText(
    `Promoted from ${devName} revision #1`,
  );
  await expect(page.getByText("Recorded (dry run)").first()).toBeVisible({ timeout: 30_000 });
  const log = page.getByRole("log");
  await expect(log).toContainText("Container source: nothing to build", { timeout: 30_000 });
  await expect(log).not.toContainText("Build started");

  await page.goto("/settings/audit");
  await page.getByLabel("Action").selectOption("deployment.promote");
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByRole("row").nth(1)).toContainText("Promoted an image");
  await expect(audit.getByRole("row").nth(1)).toContainText(prodName);
});

test("promote to a prod target: its name is typed to confirm; the new revision says where it came from", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const suffix = Date.now().toString(36);
  const stagingName = `promo-staging-${suffix}`;
  const liveName = `promo-live-${suffix}`;
  const staging = await createDeployment(page, stagingName);
  const created = await page.request.post("/v2/deployments", {
    data: {
      name: liveName,
      source: "internal_container",
      source_config: { deployment_type: "prod", resource_spec: { cpu: 1, memory_mb: 1024 } },
      source_revision_config: { image_uri: `registry.example.com/agents/${liveName}:2.0` },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const live = ((await created.json()) as { id: string }).id;
  await waitForRevision(page, staging, 1, "DEPLOYED");
  await waitForRevision(page, live, 1, "DEPLOYED");
  const { image } = await markPushed(page, staging, stagingName);

  // On a phone: the comparison and the confirmation fit, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/deployments/${staging}/revisions/${await latestRevisionId(page, staging)}`);
  await page.getByRole("button", { name: "Promote revision #1 to another deployment" }).click();
  const dialog = page.getByRole("dialog", { name: "Promote revision #1" });
  await dialog.getByLabel("Find a deployment").fill(liveName);
  const target = dialog.getByLabel("Target deployment");
  const choice = await target.locator("option", { hasText: liveName }).getAttribute("value");
  await target.selectOption(choice!);
  await expect(dialog.getByTestId("promote-from")).toHaveText(
    `registry.example.com/agents/${liveName}:2.0`,
  );
  await expect(dialog.getByTestId("promote-to")).toHaveText(shortPinned(image));
  await expect(dialog.getByTestId("promote-to-origin")).toHaveText(
    `After: from ${stagingName} · revision #1`,
  );
  await expect(dialog).toContainText(`${liveName} is a production deployment`);
  const submit = dialog.getByRole("button", { name: `Promote to ${liveName}` });
  const confirm = dialog.getByLabel(`Type ${liveName} to confirm`);
  await expect(submit).toBeDisabled();
  await confirm.fill(liveName.slice(0, -1));
  await expect(submit).toBeDisabled();
  await confirm.fill(liveName.toUpperCase());
  await expect(submit).toBeDisabled();
  expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await auditPage(page, "revision-promote-prod-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await confirm.fill(liveName);
  await expect(submit).toBeEnabled();
  await auditPage(page, "revision-promote-prod");
  // The README's picture of the dialog (docs/screenshots/promote-dialog.png is a copy).
  if (takeScreenshots) await dialog.screenshot({ path: `${SCREENSHOTS}/promote-dialog.png` });
  await submit.click();

  await expect(toast(page, `Promoted revision #1 to ${liveName}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/deployments/${live}/revisions/[0-9a-f-]{36}$`));
  await expect(page.getByRole("heading", { name: "Revision #2", exact: true })).toBeVisible();
  const origin = page.getByTestId("promoted-from");
  await expect(origin).toHaveText(`Promoted from ${stagingName} revision #1`);
  await expect(origin.getByRole("link")).toHaveAttribute(
    "href",
    new RegExp(`^/deployments/${staging}/revisions/[0-9a-f-]{36}$`),
  );

  // "N seconds ago" keeps moving without a reload (the page's clock ticks every second while
  // something shows seconds).
  const createdAt = page
    .locator("dt", { hasText: /^Created$/ })
    .locator("xpath=following-sibling::dd[1]//time");
  await expect(createdAt).toHaveText(/^\d+ seconds ago$/, { timeout: 20_000 });
  const first = await createdAt.textContent();
  await expect(createdAt).not.toHaveText(first!, { timeout: 5_000 });
  await expect(createdAt).toHaveText(/^\d+ seconds ago$/);

  // The list says it too.
  await page.goto(`/deployments/${live}/revisions`);
  const rows = page.getByRole("table", { name: "Revisions" }).getByRole("row");
  await expect(rows.nth(1)).toContainText(`Promoted from ${stagingName} revision #1`);
  await expect(rows.nth(2)).not.toContainText("Promoted from");
});
