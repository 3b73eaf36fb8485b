import { auditPage, expect, signIn, state, test } from "./fixtures";

// Issue 17: a branded 404, a favicon, tags managed in Settings and a command palette.

test("unknown addresses get a branded 404; the favicon and app icons are served", async ({
  page,
  request,
}) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to deployments" })).toBeVisible();
  await auditPage(page, "not-found");

  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toContain("image/");
  for (const rel of ["icon", "apple-touch-icon"]) {
    const hrefs = await page
      .locator(`link[rel="${rel}"]`)
      .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
    expect(hrefs.length, rel).toBeGreaterThan(0);
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
  }
});

test("tag keys and values are created, renamed and deleted in Settings", async ({ page }) => {
  test.setTimeout(120_000);
  const key = `e2e-key-${Date.now()}`;
  await signIn(page, state.admin);
  await page.goto("/settings/tags");
  await expect(page.getByRole("heading", { name: "team", exact: true })).toBeVisible();
  await page.getByLabel("New tag key").fill(key);
  await page.getByRole("button", { name: "Add key" }).click();
  await expect(page.getByRole("heading", { name: key, exact: true })).toBeVisible();

  await page.getByLabel(`New value for ${key}`).fill("blue");
  await page.getByLabel(`New value for ${key}`).press("Enter");
  const values = page.getByRole("list", { name: `Values of ${key}` });
  await expect(values).toContainText("blue");
  // A duplicate is refused with the server's words under the field.
  await page.getByLabel(`New value for ${key}`).fill("blue");
  await page.getByLabel(`New value for ${key}`).press("Enter");
  await expect(page.getByText(`Tag value "blue" already exists for key "${key}".`)).toBeVisible();
  await auditPage(page, "settings-tags");

  await page.getByRole("button", { name: "Rename value blue" }).click();
  const rename = page.getByRole("dialog", { name: "Rename tag value “blue”" });
  await rename.getByLabel("New value name").fill("green");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(values).toContainText("green");
  await expect(values).not.toContainText("blue");

  await page.getByRole("button", { name: `Rename key ${key}` }).click();
  await page.getByLabel("New key name").fill(`${key}-renamed`);
  await page.getByRole("dialog").getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("heading", { name: `${key}-renamed`, exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Delete value green" }).click();
  await page.getByRole("button", { name: "Delete value", exact: true }).click();
  await expect(page.getByRole("list", { name: `Values of ${key}-renamed` })).toBeHidden();
  await page.getByRole("button", { name: `Delete key ${key}-renamed` }).click();
  await page.getByRole("button", { name: "Delete key", exact: true }).click();
  await expect(page.getByRole("heading", { name: `${key}-renamed`, exact: true })).toBeHidden();
});

test("the command palette jumps to a deployment or a page by keyboard", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, state.admin);
  await page.goto("/deployments");
  const palette = page.getByRole("dialog", { name: "Go to" });
  // The shortcut works once the page is interactive: a press that came before hydration
  // opened nothing, so press again until the palette shows.
  await expect(async () => {
    if (!(await palette.isVisible())) await page.keyboard.press("Control+K");
    await expect(palette).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const search = palette.getByRole("combobox", { name: "Search deployments and pages" });
  await expect(search).toBeFocused();
  await search.fill("canary");
  const options = palette.getByRole("option");
  await expect(options.first()).toHaveText(/support-agent-canary/);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await auditPage(page, "command-palette");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/deployments/${state.deployments["support-agent-canary"]}`);
  await expect(palette).toBeHidden();

  // "/" opens it too (outside a text field); arrows move through the results.
  await page.locator("main").focus();
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await search.fill("settings");
  // The main section and its seven sub-pages; no deployment is named like that.
  await expect(options).toHaveCount(8);
  const target = palette.getByRole("option", { name: /Settings: Audit log/ });
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  await expect(target).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/audit$/);
});

test("the theme buttons apply a choice at once, keep it across a reload, and System follows the system", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, state.admin);
  await page.goto("/deployments");
  const html = page.locator("html");
  const theme = page.getByRole("group", { name: "Theme" });
  await expect(html).toHaveClass(/\blight\b/);
  await theme.getByRole("button", { name: "Dark" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(theme.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(theme.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  await theme.getByRole("button", { name: "System" }).click();
  await expect(html).toHaveClass(/\blight\b/);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html).toHaveClass(/\bdark\b/);
});
