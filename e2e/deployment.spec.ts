import { auditPage, expect, signIn, state, test } from "./fixtures";

test("a deployment's page shows its configuration, with secrets masked", async ({ page }) => {
  await signIn(page, state.admin);
  await page.getByRole("link", { name: "support-agent-canary", exact: true }).click();
  await expect(page).toHaveURL(`/deployments/${state.deployments["support-agent-canary"]}`);
  await expect(page.getByRole("heading", { name: "support-agent-canary" })).toBeVisible();
  await expect(
    page.getByText("registry.example.com/agents/support-agent-canary:1.0"),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "Secrets" })).toContainText("OPENAI_API_KEY");
  await expect(page.locator("body")).not.toContainText("sk-e2e-not-a-real-key");
  await expect(page.getByRole("list", { name: "Tags" })).toContainText("env: staging");
  await expect(
    page.getByRole("link", { name: "https://support-agent-canary.example.com" }),
  ).toBeVisible();
  await auditPage(page, "deployment");
});

test("an unknown deployment is a not-found page", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Deployment not found" })).toBeVisible();
});

test("delete asks for the name, then removes the deployment", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto(`/deployments/${state.deployments["delete-me"]}`);
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete deployment" });
  await expect(dialog).toBeVisible();
  await expect(page.getByLabel("Type delete-me to confirm")).toBeFocused();
  await auditPage(page, "deployment-delete-dialog");

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = dialog.getByRole("button", { name: "Delete deployment" });
  await page.getByLabel("Type delete-me to confirm").fill("delete-m");
  await expect(confirm).toBeDisabled();
  await page.getByLabel("Type delete-me to confirm").fill("delete-me");
  await confirm.click();
  await expect(page.getByText("Deleted delete-me")).toBeVisible();
  await expect(page).toHaveURL(/\/deployments$/);
  await expect(page.getByRole("link", { name: "delete-me", exact: true })).toHaveCount(0);
  await page.goto(`/deployments/${state.deployments["delete-me"]}`);
  await expect(page.getByRole("heading", { name: "Deployment not found" })).toBeVisible();
});

test("a viewer sees the deployment read-only and cannot delete it", async ({ page }) => {
  await signIn(page, state.viewer);
  await page.goto(`/deployments/${state.deployments["billing-bot"]}`);
  await expect(page.getByRole("heading", { name: "billing-bot" })).toBeVisible();
  await expect(
    page.getByText("Read-only: viewers cannot change or delete deployments."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await auditPage(page, "deployment-viewer");

  // The server refuses too: the viewer's session calling the procedure directly gets 403.
  const res = await page.request.post("/api/trpc/deployments.delete", {
    data: { json: { id: state.deployments["billing-bot"] } },
  });
  expect(res.status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("heading", { name: "billing-bot" })).toBeVisible();
});
