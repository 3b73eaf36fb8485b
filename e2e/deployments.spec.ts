import { auditPage, expect, signIn, state, test } from "./fixtures";

const table = (page: import("@playwright/test").Page) =>
  page.getByRole("table", { name: "Deployments" });
const names = (page: import("@playwright/test").Page) =>
  table(page).locator("tbody tr td:first-child a");

test.beforeEach(async ({ page }) => signIn(page, state.admin));

test("the list renders on first load, paginated", async ({ page }) => {
  // Server-side prefetch: the rows are in the HTML before any client fetch.
  const html = await (await page.request.get("/deployments")).text();
  expect(html).toContain("support-agent-canary");
  await page.goto("/deployments");

  await expect(names(page)).toHaveCount(20);
  await expect(page.getByText(/Showing 1–20 of \d+ deployments/)).toBeVisible();
  await expect(table(page).getByText("Production").first()).toBeVisible();
  // The worker has deployed the seeded deployments' first revisions by now.
  await expect(table(page).getByText("Dry run, revision #1").first()).toBeVisible({
    timeout: 30_000,
  });
  await auditPage(page, "deployments");

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/offset=20/);
  await expect(page.getByText("Showing 21–")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await page.goBack();
  await expect(page.getByText("Showing 1–20")).toBeVisible();

  await page.getByLabel("Rows per page").selectOption("10");
  await expect(page).toHaveURL(/limit=10/);
  await expect(names(page)).toHaveCount(10);
  await expect(page.getByText("Showing 1–10")).toBeVisible();
});

test("filters come from the URL, and changing one updates it", async ({ page }) => {
  await page.goto("/deployments?name_contains=support");
  await expect(names(page)).toHaveText(["support-agent-canary", "support-agent"]);
  await expect(page.getByLabel("Search by name")).toHaveValue("support");

  await page.getByLabel("Deployment type").selectOption("prod");
  await expect(page).toHaveURL(
    /name_contains=support.*deployment_type=prod|deployment_type=prod.*name_contains=support/,
  );
  await expect(names(page)).toHaveText(["support-agent"]);

  await page.goBack();
  await expect(names(page)).toHaveText(["support-agent-canary", "support-agent"]);

  // Typing in the search box is debounced into the URL.
  await page.getByLabel("Search by name").fill("billing");
  await expect(page).toHaveURL(/name_contains=billing/);
  await expect(names(page)).toHaveText(["billing-bot"]);

  await page.goto(`/deployments?tag_value_ids=${state.tags["env:staging"]}`);
  await expect(names(page)).toHaveText(["support-agent-canary"]);
  await expect(page.getByRole("button", { name: "Remove filter env: staging" })).toBeVisible();

  await page.goto("/deployments?image_version=2.1.0");
  await expect(names(page)).toHaveText(["support-agent"]);

  await page.goto("/deployments?remote_reconciled=true");
  await expect(
    page.getByRole("heading", { name: "No deployments match these filters" }),
  ).toBeVisible();
  await auditPage(page, "deployments-no-match");
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/deployments$/);
  await expect(names(page)).toHaveCount(20);
});

test("status and tag filters are picked from menus", async ({ page }) => {
  await page.goto("/deployments");
  await page.getByRole("button", { name: "Status", exact: true }).click();
  await page.getByLabel("Unused").check();
  await expect(page).toHaveURL(/status=UNUSED/);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Tags" }).click();
  await auditPage(page, "deployments-tag-menu");
  await page.getByRole("checkbox", { name: "research" }).check();
  await expect(page).toHaveURL(new RegExp(`tag_value_ids=${state.tags["team:research"]}`));
});
