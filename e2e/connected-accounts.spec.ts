import { CLIENTS, startOAuthServer, type OAuthServer } from "../testing/oauth-server";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The dashboard's connect flow against a real authorization server (oidc-provider): connect an
// account from the provider's page, sign in and consent there, come back, see it, connect it to
// an agent, disconnect it.

const PROVIDER = "e2e-op";
let op: OAuthServer;

test.beforeAll(async () => {
  op = await startOAuthServer([`${state.baseUrl}/v2/auth/callback/${PROVIDER}`]);
});

test.afterAll(async () => {
  await op?.stop();
});

test("connect an account at a provider, use it for an agent, disconnect it", async ({ page }) => {
  await signIn(page, state.admin);
  // The provider, through the same REST route the dashboard session may call.
  const created = await page.request.post("/v2/auth/providers", {
    data: {
      provider_id: PROVIDER,
      name: "Example IdP",
      client_id: CLIENTS.basic.client_id,
      client_secret: CLIENTS.basic.client_secret,
      auth_url: op.authUrl,
      token_url: op.tokenUrl,
      token_endpoint_auth_method: "client_secret_basic",
    },
  });
  expect(created.status()).toBe(201);
  try {
    await page.goto("/connected-accounts");
    await expect(page.getByRole("heading", { name: "No connected accounts yet" })).toBeVisible();
    await auditPage(page, "connected-accounts-empty");

    await page.goto(`/providers/${PROVIDER}`);
    await expect(page.getByRole("heading", { name: "No account connected" })).toBeVisible();
    await page.getByLabel("Scopes (space-separated, optional)").fill("openid email offline_access");
    await page.getByRole("button", { name: "Connect account" }).click();

    // At the provider: sign in, consent; then back on Hangar's result page.
    await page.locator('input[name="login"]').fill("dana");
    await page.locator('input[name="password"]').fill("any-password");
    await page.locator('button[type="submit"]').click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Account connected" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText("dana@example.test");
    await auditPage(page, "auth-complete");

    await page.getByRole("link", { name: "Go to connected accounts" }).click();
    const table = page.getByRole("table", { name: "Connected accounts" });
    const row = table.getByRole("row", { name: /dana@example.test/ });
    await expect(row).toContainText("Default");
    await expect(row).toContainText("offline_access");
    await expect(row).toContainText(PROVIDER);
    await auditPage(page, "connected-accounts");

    // Connect it to an agent from the deployment's Connections tab.
    await page.goto(`/deployments/${state.deployments["billing-bot"]}/connections`);
    await expect(page.getByRole("heading", { name: "No connections" })).toBeVisible();
    await page
      .getByLabel("One of your connected accounts")
      .selectOption({ label: `${PROVIDER} · dana@example.test` });
    await page.getByRole("button", { name: "Connect to this agent" }).click();
    await expect(page.getByRole("table", { name: "Agent connections" })).toContainText(
      "dana@example.test",
    );
    await auditPage(page, "deployment-connections");

    // Disconnect (asks first); the token is revoked at the provider and the agent loses it.
    await page.goto(`/providers/${PROVIDER}`);
    await page.getByRole("button", { name: `Disconnect dana@example.test (${PROVIDER})` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByRole("heading", { name: "No account connected" })).toBeVisible();
  } finally {
    // Other specs expect the seeded workspace without providers.
    await page.request.delete(`/v2/auth/providers/${PROVIDER}`);
  }
});
