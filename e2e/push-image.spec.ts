import { createDeployment } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

test("push an image: the commands, and a push token shown once", async ({ page }) => {
  await signIn(page, state.admin);
  const name = `push-panel-${Date.now().toString(36)}`;
  const id = await createDeployment(page, name);
  await page.goto(`/deployments/${id}`);
  const panel = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Push an image" }) });
  const workspace = await page.request.get(`/v2/deployments/${id}`);
  const tenantId = ((await workspace.json()) as { tenant_id: string }).tenant_id;
  const image = `registry.hangar.test:5000/${tenantId}/${name}:latest`;
  await expect(panel.getByText(`docker push ${image}`)).toBeVisible();
  await expect(
    panel.getByText("docker login registry.hangar.test:5000 -u oauth2accesstoken --password-stdin"),
  ).toBeVisible();

  await panel.getByRole("button", { name: "Create a push token" }).click();
  await expect(panel.getByLabel("Push token", { exact: true })).toHaveValue(
    /^hgp_[A-Za-z0-9_-]{43}$/,
  );
  await expect(panel.getByRole("button", { name: "Copy token" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Create a push token" })).toHaveCount(0);
  await auditPage(page, "deployment-push-token");
});
