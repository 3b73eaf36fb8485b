import { toast } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test("a deployment's page shows its configuration, with secrets masked", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
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

test("delete asks for the name; the deployment shows as deleting, then is gone", async ({
  page,
}) => {
  await signIn(page, state.admin);
  const id = state.deployments["delete-me"]!;
  await page.goto(`/deployments/${id}`);
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
  await expect(toast(page, "Deleting delete-me")).toBeVisible();
  await expect(page).toHaveURL(/\/deployments$/);
  // Until the worker has torn it down the row says Deleting; then it leaves the list unreloaded.
  const row = page
    .getByRole("table", { name: "Deployments" })
    .locator("tbody tr")
    .filter({ has: page.getByRole("link", { name: "delete-me", exact: true }) });
  await expect(row.filter({ hasNotText: "Deleting" })).toHaveCount(0);
  await expect(row).toHaveCount(0, { timeout: 30_000 });
  await page.goto(`/deployments/${id}`);
  await expect(page.getByRole("heading", { name: "Deployment not found" })).toBeVisible();
  const res = await page.request.get(`/v2/deployments/${id}`);
  expect(res.status()).toBe(404);
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
    data: { id: state.deployments["billing-bot"] },
  });
  expect(res.status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("heading", { name: "billing-bot" })).toBeVisible();
});
