import { randomUUID } from "node:crypto";
import { auditPage, expect, signIn, state, test } from "./fixtures";

const codehostUrl = process.env.E2E_CODEHOST_URL!;

test("manage a code-host integration: test, edit, rotate, webhook, delete; the audit says who and what", async ({
  page,
}) => {
  // One long scenario (a key, an integration through its whole life, the audit log).
  test.slow();
  const suffix = randomUUID().slice(0, 8);
  const name = `Managed host ${suffix}`;
  const renamed = `Renamed host ${suffix}`;
  const keyName = `integrations key ${suffix}`;
  await signIn(page, state.admin);

  // An API key to act with, so the audit log can show the key by name.
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Name").fill(keyName);
  await page.getByLabel("Role").selectOption("admin");
  await page.getByRole("button", { name: "Create key" }).last().click();
  const created = page.getByRole("dialog", { name: "Your new API key" });
  const key = await created.getByLabel(new RegExp(keyName)).inputValue();
  await created.getByRole("button", { name: "Done" }).click();

  // Register: a duplicate name is refused on the name field.
  await page.goto("/settings/integrations");
  const register = async (integrationName: string) => {
    await page.getByRole("button", { name: "Register integration" }).first().click();
    const form = page.getByRole("form", { name: "Register a code-host integration" });
    await form.getByLabel("Name").fill(integrationName);
    await form.getByLabel("API base URL").fill(codehostUrl);
    await form.getByLabel("Access token").fill("codehost-dev-token");
    await form.getByRole("button", { name: "Register integration" }).click();
    return form;
  };
  await register(name);
  await expect(page.getByText(`Registered ${name}`)).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText(codehostUrl);
  await expect(card).toContainText("Access token");
  await expect(card).toContainText("Connected");
  const form = await register(name.toLowerCase());
  await expect(form.getByText(`"${name}" already exists`)).toBeVisible();
  await form.getByRole("button", { name: "Cancel" }).click();
  await auditPage(page, "settings-integrations-managed");

  // Test the connection.
  await card.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByText(`${name}: the code host accepts the credentials`)).toBeVisible();

  // Rotate the token: a refused one is not stored.
  await card.getByRole("button", { name: "Rotate token" }).click();
  const rotate = page.getByRole("dialog", { name: `Rotate the token of ${name}` });
  await rotate.getByLabel("New access token").fill("not-a-valid-token");
  await rotate.getByRole("button", { name: "Rotate token" }).click();
  await expect(rotate.getByText("The code host refused this token")).toBeVisible();
  await auditPage(page, "settings-integration-rotate");
  await rotate.getByLabel("New access token").fill("codehost-dev-token");
  await rotate.getByRole("button", { name: "Rotate token" }).click();
  await expect(page.getByText(`Rotated the token of ${name}`)).toBeVisible();

  // Webhook: the payload URL and a secret shown once, both copyable.
  await card.getByRole("button", { name: "Webhook" }).click();
  const webhook = page.getByRole("dialog", { name: `Build on push for ${name}` });
  await expect(webhook.getByRole("textbox", { name: "Payload URL" })).toHaveValue(
    new RegExp(`^${state.baseUrl}/v1/webhooks/codehost/[0-9a-f-]{36}$`),
  );
  await webhook.getByRole("button", { name: "Generate secret" }).click();
  await expect(webhook.getByRole("textbox", { name: "Webhook secret" })).toHaveValue(/^whsec_/);
  await expect(webhook.getByRole("button", { name: "Copy webhook secret" })).toBeVisible();
  await auditPage(page, "settings-integration-webhook");
  await webhook.getByRole("button", { name: "Done" }).click();
  await expect(card).toContainText("Webhook secret set");

  // Edit: rename.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await edit.getByLabel("Name").fill(renamed);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Saved ${renamed}`)).toBeVisible();
  const renamedCard = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: renamed }) });
  // The id is shown whole, with a copy button.
  await expect(
    renamedCard.getByRole("button", { name: `Copy ${renamed} integration ID` }),
  ).toBeVisible();
  const integrationId = await renamedCard
    .getByText(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/)
    .textContent();

  // A deployment made with the API key uses it: delete is refused, naming the deployment.
  const deploymentName = `uses-host-${suffix}`;
  const res = await fetch(`${state.baseUrl}/v2/deployments`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({
      name: deploymentName,
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${codehostUrl}/acme/support-bot`,
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const deployment = (await res.json()) as { id: string };
  await page.reload();
  await expect(renamedCard.getByRole("link", { name: deploymentName })).toBeVisible();
  await renamedCard.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: `Delete ${renamed}?` });
  await confirm.getByRole("button", { name: "Delete integration" }).click();
  await expect(
    confirm.getByText(`is used by 1 deployment: ${deploymentName}. Delete it first.`),
  ).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();

  // The audit log: the key by name as the actor, the target by name, and what changed.
  await page.goto("/settings/audit?action=codehost_integration.update");
  await expect(page.getByLabel("Action")).toHaveValue("codehost_integration.update");
  const table = page.getByRole("table", { name: "Audit log" });
  const renameRow = table.getByRole("row").filter({ hasText: renamed });
  await expect(renameRow).toContainText(`name: ${name} → ${renamed}`);
  await expect(renameRow).toContainText(state.admin.email);
  await page.getByLabel("Action").selectOption("deployment.create");
  await expect(page).toHaveURL(/\/settings\/audit\?action=deployment\.create$/);
  const createRow = table.getByRole("row").filter({ hasText: deploymentName });
  await expect(createRow).toContainText(`API key ${keyName}`);
  await expect(createRow.getByRole("link", { name: deploymentName })).toHaveAttribute(
    "href",
    `/deployments/${deployment.id}`,
  );
  await auditPage(page, "settings-audit-names");

  // Once the deployment is gone, the integration can be deleted.
  const gone = await fetch(`${state.baseUrl}/v2/deployments/${deployment.id}`, {
    method: "DELETE",
    headers: { "x-api-key": key },
  });
  expect(gone.status).toBeLessThan(300);
  // The worker tears the deployment down, then removes it.
  await expect
    .poll(
      async () =>
        (
          await fetch(`${state.baseUrl}/v2/deployments/${deployment.id}`, {
            headers: { "x-api-key": key },
          })
        ).status,
      { timeout: 30_000 },
    )
    .toBe(404);
  await page.goto("/settings/integrations");
  await expect(renamedCard).toBeVisible();
  await renamedCard.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete integration" }).click();
  await expect(page.getByText(`Deleted ${renamed}`)).toBeVisible();
  await expect(renamedCard).toHaveCount(0);
});
