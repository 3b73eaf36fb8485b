import { auditPage, expect, signIn, state, test } from "./fixtures";

test("create an API key, use it once shown, revoke it", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Settings" })
    .click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole("table", { name: "API keys" })).toBeVisible();
  await auditPage(page, "settings-api-keys");

  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Name").fill("e2e reader");
  await page.getByLabel("Role").selectOption("viewer");
  await page.getByRole("button", { name: "Create key" }).last().click();
  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  await expect(dialog).toContainText("It is shown only once");
  const key = await dialog.getByLabel(/e2e reader/).inputValue();
  expect(key).toMatch(/^hgr_/);
  await expect(dialog.getByRole("button", { name: "Copy key" })).toBeVisible();
  await auditPage(page, "settings-api-key-created");
  await dialog.getByRole("button", { name: "Done" }).click();

  const list = async () =>
    (await fetch(`${state.baseUrl}/v2/deployments?limit=1`, { headers: { "x-api-key": key } }))
      .status;
  expect(await list()).toBe(200);

  const row = page.getByRole("row", { name: /e2e reader/ });
  await expect(row).toContainText("Active");
  // Made in the dashboard without choosing: the admin's own key, bound to their role.
  await expect(row).toContainText("Personal");
  await row.getByRole("button", { name: "Revoke e2e reader" }).click();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("Revoked e2e reader")).toBeVisible();
  await expect(row).toContainText("Revoked");
  expect(await list()).toBe(401);
});

test("members, integrations and the audit log", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/settings/members");
  await expect(page.getByRole("table", { name: "Members" })).toContainText(state.viewer.email);
  await page.getByLabel("Email").fill("new.member@hangar.test");
  await page.getByLabel("Role", { exact: true }).selectOption("editor");
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByRole("dialog", { name: "Account created" })).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByLabel("Role of new.member@hangar.test", { exact: true }).selectOption("viewer");
  await expect(page.getByText("new.member@hangar.test is now viewer")).toBeVisible();
  // The last admin cannot step down.
  await page.getByLabel(`Role of ${state.admin.email}`, { exact: true }).selectOption("editor");
  await expect(page.getByText("A workspace needs at least one admin")).toBeVisible();
  await expect(page.getByLabel(`Role of ${state.admin.email}`, { exact: true })).toHaveValue(
    "admin",
  );
  // Organization roles (providers, integrations) are set beside the workspace role.
  await page.getByLabel("Organization role of new.member@hangar.test").selectOption("admin");
  await expect(page.getByText("new.member@hangar.test is now organization admin")).toBeVisible();
  await auditPage(page, "settings-members");
  await page.getByRole("button", { name: "Remove new.member@hangar.test" }).click();
  await page.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByRole("table", { name: "Members" })).not.toContainText("new.member@");

  await page.getByRole("link", { name: "Code-host integrations" }).click();
  await expect(page).toHaveURL(/\/settings\/integrations$/);
  await auditPage(page, "settings-integrations");

  await page.getByRole("link", { name: "Audit log" }).click();
  const table = page.getByRole("table", { name: "Audit log" });
  await expect(table.getByRole("row").nth(1)).toContainText("Removed a member");
  await expect(table).toContainText(state.admin.email);
  await auditPage(page, "settings-audit");
  await page.getByLabel("Action").selectOption("deployment.create");
  await expect(table.getByRole("row").nth(1)).toContainText("Created a deployment");
  await expect(page.getByText("Showing 1–20")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 21–")).toBeVisible();
});

test("a viewer sees settings and providers read-only", async ({ page }) => {
  await signIn(page, state.viewer);
  await page.goto("/settings/api-keys");
  await expect(
    page.getByText(
      "Only admins can see and manage API keys. Your role in this workspace is viewer.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await auditPage(page, "settings-api-keys-viewer");

  await page.goto("/settings/members");
  await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Add a member" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);

  await page.goto("/settings/integrations");
  await expect(page.getByRole("button", { name: "Register integration" })).toHaveCount(0);

  await page.goto("/providers");
  await expect(
    page.getByText("Read-only: only organization owners and admins add or change providers."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "New provider" })).toHaveCount(0);
  await page.goto("/providers/new");
  await expect(page).toHaveURL(/\/providers$/);

  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Viewers cannot import" })).toBeVisible();
  await auditPage(page, "import-viewer");
});
