import { createDeployment, patchDeployment, toast } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test.beforeEach(async ({ page }) => signIn(page, state.admin));

test("a change that cuts a revision says so before saving, then shows in the revisions list", async ({
  page,
}) => {
  const id = await createDeployment(page, "settings-cut");
  await page.goto(`/deployments/${id}/settings`);
  const sections = page.getByRole("navigation", { name: "Deployment sections" });
  await expect(sections.getByRole("link", { name: "Settings" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByText("No pending changes.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0); // fixed fields are text
  await expect(page.getByText("Fixed at creation")).toBeVisible();
  await auditPage(page, "deployment-settings");

  await page.getByLabel("Image").fill("registry.example.com/agents/settings-cut:2.0");
  await page.getByLabel("CPU request (cores)", { exact: true }).fill("1");
  const notice = page.getByRole("status").filter({ hasText: "Saving will cut a new revision" });
  await expect(notice).toContainText("Saving will cut a new revision (#2)");
  await expect(notice).toContainText("Image, Resources");
  await auditPage(page, "deployment-settings-pending");

  // The API's schema runs in the form: a bad value is refused before any request, in words.
  await page.getByLabel("CPU limit (cores)", { exact: true }).fill("0.5");
  await page.getByLabel("Maximum replicas", { exact: true }).fill("1");
  await page.getByLabel("Minimum replicas", { exact: true }).fill("3");
  await page.getByLabel("Memory request (MB)", { exact: true }).fill("64");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("CPU limit must be at least the request (1 core)")).toBeVisible();
  await expect(page.getByText("Maximum replicas must be at least the minimum (3)")).toBeVisible();
  await expect(page.getByText("Memory must be at least 128 MB")).toBeVisible();
  await expect(page.getByLabel("CPU limit (cores)", { exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await auditPage(page, "deployment-settings-invalid");
  await page.getByLabel("CPU limit (cores)", { exact: true }).fill("");
  await page.getByLabel("Maximum replicas", { exact: true }).fill("");
  await page.getByLabel("Minimum replicas", { exact: true }).fill("");
  await page.getByLabel("Memory request (MB)", { exact: true }).fill("512");

  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Saved: revision #2 was cut")).toBeVisible();
  await expect(page.getByText("No pending changes.")).toBeVisible();
  await expect(page.getByRole("link", { name: /Latest revision #2/ })).toBeVisible();

  await page.getByRole("link", { name: "Revisions", exact: true }).click();
  const rows = page.getByRole("table", { name: "Revisions" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("#2");
  await expect(rows.first()).toContainText("Latest");
  await expect(rows.first()).toContainText("registry.example.com/agents/settings-cut:2.0");
  await expect(rows.nth(1)).toContainText("registry.example.com/agents/settings-cut:1.0");
  await auditPage(page, "deployment-revisions");

  // The server agrees with what the form showed: the spec has cpu 1 and its default limit 2.
  const res = await page.request.get(`/v2/deployments/${id}`);
  const body = (await res.json()) as { source_config: { resource_spec: Record<string, number> } };
  expect(body.source_config.resource_spec).toMatchObject({ cpu: 1, cpu_limit: 2, memory_mb: 512 });
});

test("custom URL changes are saved without a new revision", async ({ page }) => {
  const id = await createDeployment(page, "settings-url");
  await page.goto(`/deployments/${id}/settings`);
  await page.getByLabel("Custom URL").fill("https://new-url.example.com");
  await expect(page.getByRole("status").filter({ hasText: "Custom URL" })).toContainText(
    "will be saved without a new revision",
  );
  await expect(page.getByText("Saving will cut a new revision")).toHaveCount(0);

  await page.getByLabel("Custom URL").fill("not a url");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByLabel("Custom URL")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Custom URL").fill("https://new-url.example.com");

  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Saved: no new revision")).toBeVisible();
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page.getByRole("link", { name: "https://new-url.example.com" })).toBeVisible();
  await page.getByRole("link", { name: "Revisions", exact: true }).click();
  await expect(page.getByRole("table", { name: "Revisions" }).locator("tbody tr")).toHaveCount(1);
});

test("a save against a deployment changed meanwhile offers a reload", async ({ page }) => {
  const id = await createDeployment(page, "settings-stale");
  await page.goto(`/deployments/${id}/settings`);
  await patchDeployment(page, id, {
    source_config: { custom_url: "https://elsewhere.example.com" },
  });

  await page.getByLabel("Image").fill("registry.example.com/agents/settings-stale:2.0");
  await page.getByRole("button", { name: "Save settings" }).click();
  const stale = toast(page, "This deployment changed since you opened it");
  await expect(stale).toBeVisible();
  await auditPage(page, "deployment-settings-stale");
  await stale.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByLabel("Custom URL")).toHaveValue("https://elsewhere.example.com");
  await expect(page.getByLabel("Image")).toHaveValue(
    "registry.example.com/agents/settings-stale:1.0",
  );
  await expect(page.getByText("No pending changes.")).toBeVisible();
});

test("tags: one value per key, saved without a new revision", async ({ page }) => {
  const id = await createDeployment(page, "tags-edit");
  await page.goto(`/deployments/${id}/tags`);
  await expect(page.getByLabel("team")).toHaveValue("");
  await auditPage(page, "deployment-tags");
  await page.getByLabel("team").selectOption({ label: "research" });
  // env:staging is left alone: the list spec expects a single deployment to carry it.
  await expect(page.getByLabel("env").locator("option")).toHaveText(["None", "staging"]);
  await expect(page.getByRole("status")).toContainText("Tags will be saved without a new revision");
  await page.getByRole("button", { name: "Save tags" }).click();
  await expect(toast(page, "Saved: no new revision")).toBeVisible();
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page.getByRole("list", { name: "Tags" })).toContainText("team: research");
});

test("an emptied image is caught before saving", async ({ page }) => {
  const id = await createDeployment(page, "settings-no-image");
  await page.goto(`/deployments/${id}/settings`);
  await page.getByLabel("Image").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Image is required")).toBeVisible();
  await expect(page.getByLabel("Image")).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByText("No pending changes.")).toBeVisible();
});

test("leaving with unsaved changes asks first", async ({ page }) => {
  const id = await createDeployment(page, "settings-unsaved");
  await page.goto(`/deployments/${id}/settings`);
  await page.getByLabel("Custom URL").fill("https://unsaved.example.com");
  const sections = page.getByRole("navigation", { name: "Deployment sections" });

  await sections.getByRole("link", { name: "Secrets" }).click();
  const question = page.getByRole("dialog", { name: "Leave without saving?" });
  await expect(question).toContainText("Your changes to the settings are not saved");
  await auditPage(page, "deployment-settings-unsaved");
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${id}/settings$`));
  await expect(page.getByLabel("Custom URL")).toHaveValue("https://unsaved.example.com");

  // Closing the tab gets the browser's own question.
  const beforeUnload = page.waitForEvent("dialog");
  void page.close({ runBeforeUnload: true });
  const dialog = await beforeUnload;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.dismiss();

  await sections.getByRole("link", { name: "Secrets" }).click();
  await question.getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${id}/secrets$`));

  // Secrets ask too; saved changes do not.
  await page.getByRole("button", { name: "Add secret" }).click();
  await page.getByPlaceholder("NAME").last().fill("NEW_SECRET");
  await page.getByPlaceholder("value").last().fill("new-value");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Deployments" })
    .click();
  await expect(page.getByRole("dialog", { name: "Leave without saving?" })).toContainText(
    "Your changes to the secrets are not saved",
  );
});

test("Back with unsaved changes asks first: cancel keeps the edit, confirm leaves", async ({
  page,
}) => {
  const id = await createDeployment(page, "settings-back");
  const settings = new RegExp(`/deployments/${id}/settings$`);
  const overview = new RegExp(`/deployments/${id}$`);
  await page.goto(`/deployments/${id}`);
  await page
    .getByRole("navigation", { name: "Deployment sections" })
    .getByRole("link", { name: "Settings" })
    .click();
  await expect(page).toHaveURL(settings);
  await page.getByLabel("Custom URL").fill("https://back.example.com");

  // Back asks; the question takes the keyboard, Cancel first (nothing is lost by Enter).
  await page.goBack();
  const question = page.getByRole("dialog", { name: "Leave without saving?" });
  await expect(question).toContainText("Your changes to the settings are not saved");
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expect(page).toHaveURL(settings);
  await auditPage(page, "deployment-settings-unsaved-back");
  await page.keyboard.press("Enter");
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(settings);
  await expect(page.getByLabel("Custom URL")).toHaveValue("https://back.example.com");

  // Asked again on the next Back; Escape keeps the page too.
  await page.goBack();
  await expect(question).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(page.getByLabel("Custom URL")).toHaveValue("https://back.example.com");

  // Reloading gets the browser's own question.
  const beforeReload = page.waitForEvent("dialog");
  void page.reload().catch(() => {});
  const reloadQuestion = await beforeReload;
  expect(reloadQuestion.type()).toBe("beforeunload");
  await reloadQuestion.dismiss();
  await expect(page.getByLabel("Custom URL")).toHaveValue("https://back.example.com");

  // Confirming (by keyboard) goes where Back was going: the page before.
  await page.goBack();
  await expect(question).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(question.getByRole("button", { name: "Leave without saving" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(overview);
  await expect(page.getByRole("link", { name: "https://settings-back.example.com" })).toBeVisible();

  // Saved changes let Back through at once, and leave no extra step in history.
  await page.goForward();
  await expect(page).toHaveURL(settings);
  await page.getByLabel("Custom URL").fill("https://saved.example.com");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Saved: no new revision")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(overview);
  await expect(question).toBeHidden();
});
