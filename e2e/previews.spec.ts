import { startCodehostServer, type CodehostServer } from "../testing/codehost-server";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// Preview deployments in the dashboard (contract 5.6): a deployment lists its pull requests'
// previews, a preview links to its pull request and its parent, and the deployments list shows
// or hides previews through its URL. The pull request comes from a code host of this spec's own,
// as signed pull_request deliveries to the server's webhook.

const SECRET = "whsec-e2e-previews-0123456789";
let host: CodehostServer;

test.beforeAll(async () => {
  host = await startCodehostServer();
});
test.afterAll(() => host?.stop());
test.beforeEach(async ({ page }) => signIn(page, state.admin));

test("a deployment lists its previews, and the list filters them", async ({ page }) => {
  const integration = await page.request.post("/v1/integrations/codehost", {
    data: {
      name: "previews host",
      api_base_url: host.url,
      token: "codehost-dev-token",
      webhook_secret: SECRET,
    },
  });
  expect(integration.status(), await integration.text()).toBe(201);
  const integrationId = ((await integration.json()) as { id: string }).id;
  host.pulls.addWebhook(`${state.baseUrl}/v1/webhooks/codehost/${integrationId}`, SECRET);
  const created = await page.request.post("/v2/deployments", {
    data: {
      name: "preview-parent",
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${host.url}/acme/support-bot`,
        build_on_push: true,
        previews: { enabled: true, max_open: 3 },
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const parentId = ((await created.json()) as { id: string }).id;

  // No pull request yet: the card says how to get a preview.
  await page.goto(`/deployments/${parentId}`);
  await expect(page.getByText("No previews")).toBeVisible();
  await expect(
    page.getByText("On: at most 3 open, deleted after 72 h without a push, secrets none"),
  ).toBeVisible();
  await expect(page.getByText(/Open a pull request into this deployment's branch/)).toBeVisible();

  const { pr, deliveries } = await host.pulls.open({
    repo: "acme/support-bot",
    title: "Warmer replies",
    author: "alice",
    head: "warmer-replies",
  });
  expect(deliveries[0]!.status).toBe(202);
  const previewId = deliveries[0]!.body.previews[0]!.preview_id!;

  await page.reload();
  const previews = page.getByRole("list", { name: "Previews" });
  const item = previews.getByRole("listitem");
  await expect(item).toHaveCount(1);
  await expect(item.getByRole("link", { name: `#${pr.number} Warmer replies` })).toBeVisible();
  await expect(item.getByText("warmer-replies")).toBeVisible();
  await expect(item.getByText(/by alice/)).toBeVisible();
  // The shared worker is a dry run: the preview runs nowhere, and the row says so.
  await expect(item.getByText("Dry run: not running")).toBeVisible({ timeout: 30_000 });
  await auditPage(page, "deployment-previews");
  // Readable on a phone: nothing scrolls sideways at 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(item.getByText(/by alice/)).toBeVisible();
  const sideways = await page.evaluate(
    () => document.scrollingElement!.scrollWidth - window.innerWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The preview's page: its pull request and its parent.
  await item.getByRole("link", { name: `#${pr.number} Warmer replies` }).click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${previewId}$`));
  await expect(page.getByRole("heading", { name: `preview-parent-pr-${pr.number}` })).toBeVisible();
  await expect(page.getByRole("link", { name: `#${pr.number} Warmer replies` })).toHaveAttribute(
    "href",
    `${host.url}/acme/support-bot/pull/${pr.number}`,
  );
  await page.getByRole("link", { name: "its parent deployment" }).click();
  await expect(page).toHaveURL(new RegExp(`/deployments/${parentId}$`));

  // The list: previews hidden, then only previews, from the URL and from the control.
  const names = page
    .getByRole("table", { name: "Deployments" })
    .locator("tbody tr td:first-child a");
  await page.goto("/deployments?previews=exclude&name_contains=preview-parent");
  await expect(names).toHaveText(["preview-parent"]);
  await expect(page.getByLabel("Preview deployments")).toHaveValue("exclude");
  await page.getByLabel("Preview deployments").selectOption("only");
  await expect(page).toHaveURL(/previews=only/);
  await expect(names).toHaveText([`preview-parent-pr-${pr.number}`]);
  await expect(page.getByText(`Preview · PR #${pr.number}`)).toBeVisible();
  await page.getByRole("button", { name: "Remove filter Only previews" }).click();
  await expect(names).toHaveText([`preview-parent-pr-${pr.number}`, "preview-parent"]);

  // Closing the pull request deletes the preview; the card is empty again.
  await host.pulls.close("acme/support-bot", pr.number);
  await expect
    .poll(async () => (await page.request.get(`/v2/deployments/${previewId}`)).status(), {
      timeout: 30_000,
    })
    .toBe(404);
  await page.goto(`/deployments/${parentId}`);
  await expect(page.getByText("No previews")).toBeVisible();
});
