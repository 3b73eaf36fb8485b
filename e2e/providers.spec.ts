import { auditPage, expect, signIn, state, test } from "./fixtures";

test("create an OAuth provider after the form explains what is wrong", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/providers");
  await expect(page.getByRole("heading", { name: "No OAuth providers yet" })).toBeVisible();
  await auditPage(page, "providers-empty");
  await page.getByRole("link", { name: "New provider" }).first().click();
  await expect(page).toHaveURL(/\/providers\/new$/);

  // A bad form: the messages appear while typing, and the rules panel tracks them.
  const form = page.getByRole("form", { name: "New OAuth provider" });
  await page.getByLabel("Provider ID").fill("github app!");
  await expect(form.getByText("Provider ID starts with a letter or digit")).toBeVisible();
  await page.getByLabel("Authorization URL").fill("http://auth.example.com/authorize");
  await expect(
    form.getByText("Must be an absolute https URL (http is allowed only for localhost)"),
  ).toBeVisible();
  await page.getByLabel("Token endpoint auth method").selectOption("none");
  await page.getByLabel("Client secret").fill("s3cret");
  await expect(form.getByText("A public client has no client secret")).toBeVisible();
  await page.getByLabel("Use PKCE").uncheck();
  await expect(form.getByText("A public client (method none) must use PKCE")).toBeVisible();
  await page.getByRole("button", { name: "Create provider" }).click();
  await expect(page.getByLabel("Display name")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/providers\/new$/);
  await auditPage(page, "providers-new-invalid");

  // Fixed: a confidential client with a secret, https endpoints.
  await page.getByLabel("Provider ID").fill("github-app");
  await page.getByLabel("Display name").fill("GitHub App");
  await page.getByLabel("Provider type").selectOption("slack");
  await page.getByLabel("Authorization URL").fill("https://auth.example.com/authorize");
  await page.getByLabel("Token URL").fill("http://localhost:9999/token");
  await page.getByLabel("Client ID").fill("client-123");
  await page.getByLabel("Token endpoint auth method").selectOption("client_secret_basic");
  await page.getByLabel("Use PKCE").check();
  await page.getByLabel("Code challenge method").selectOption("plain");
  await expect(form.getByText("A public client has no client secret")).toHaveCount(0);
  await page.getByRole("button", { name: "Create provider" }).click();
  await expect(page).toHaveURL(/\/providers$/);
  await expect(page.getByText("Created GitHub App")).toBeVisible();
  const row = page
    .getByRole("table", { name: "OAuth providers" })
    .getByRole("row", { name: /github-app/ });
  await expect(row).toContainText("plain");
  await expect(row).toContainText("client_secret_basic");
  await auditPage(page, "providers");

  // A second one with the same id: the server's 409 lands on the field.
  await page.goto("/providers/new");
  await page.getByLabel("Provider ID").fill("github-app");
  await page.getByLabel("Display name").fill("Duplicate");
  await page.getByLabel("Authorization URL").fill("https://a.example.com");
  await page.getByLabel("Token URL").fill("https://a.example.com/token");
  await page.getByLabel("Client ID").fill("x");
  await page.getByLabel("Client secret").fill("y");
  await page.getByRole("button", { name: "Create provider" }).click();
  await expect(page.getByText('OAuth provider "github-app" already exists.')).toBeVisible();

  // Edit: the secret is write-only.
  await page.goto("/providers/github-app");
  await expect(page.getByText("A secret is set — enter a new one to replace it.")).toBeVisible();
  await expect(page.getByLabel("Client secret")).toHaveValue("");
  await auditPage(page, "provider-edit");
  await page.getByLabel("Display name").fill("GitHub App (prod)");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved GitHub App (prod)")).toBeVisible();
  await expect(page.getByRole("heading", { name: "GitHub App (prod)" })).toBeVisible();

  // A throwaway provider to delete, so the one above stays for the viewer test.
  await page.goto("/providers/new");
  await page.getByLabel("Provider ID").fill("to-delete");
  await page.getByLabel("Display name").fill("To delete");
  await page.getByLabel("Authorization URL").fill("https://a.example.com");
  await page.getByLabel("Token URL").fill("https://a.example.com/token");
  await page.getByLabel("Client ID").fill("x");
  await page.getByLabel("Token endpoint auth method").selectOption("none");
  await page.getByRole("button", { name: "Create provider" }).click();
  await expect(page).toHaveURL(/\/providers$/);
  await page.getByRole("link", { name: "to-delete" }).click();
  // Exact: the provider id's copy button ("Copy To delete provider ID") holds the word too.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await auditPage(page, "provider-delete-dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Delete provider" }).click();
  await expect(page).toHaveURL(/\/providers$/);
  await expect(page.getByText("Deleted To delete")).toBeVisible();
  await expect(page.getByRole("link", { name: "to-delete" })).toHaveCount(0);
});
