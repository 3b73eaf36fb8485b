import type { Page } from "@playwright/test";
import { startCodehostServer, type CodehostServer } from "../testing/codehost-server";
import { toast, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// Preview deployments in the dashboard (contract 5.6): a deployment lists its pull requests'
// previews, a preview links to its pull request and its parent, the deployments list shows or
// hides previews through its URL, and a fork's preview says which commit may use its secrets and
// lets an editor approve the head (by keyboard, after a confirmation). The pull request comes
// from a code host of this spec's own, as signed pull_request deliveries to the server's webhook.

const SECRET = "whsec-e2e-previews-0123456789";
let host: CodehostServer;

test.beforeAll(async () => {
  host = await startCodehostServer();
});
test.afterAll(() => host?.stop());
test.beforeEach(async ({ page }) => signIn(page, state.admin));

/** A code-host integration on this spec's host, its webhook registered there. */
async function createIntegration(page: Page, name: string): Promise<string> {
  const integration = await page.request.post("/v1/integrations/codehost", {
    data: { name, api_base_url: host.url, token: "codehost-dev-token", webhook_secret: SECRET },
  });
  expect(integration.status(), await integration.text()).toBe(201);
  const integrationId = ((await integration.json()) as { id: string }).id;
  host.pulls.addWebhook(`${state.baseUrl}/v1/webhooks/codehost/${integrationId}`, SECRET);
  return integrationId;
}

/** A code-host deployment of acme/support-bot's main branch. */
async function createCodehostDeployment(page: Page, name: string, config: object) {
  const created = await page.request.post("/v2/deployments", {
    data: {
      name,
      source: "codehost",
      source_config: {
        integration_id: await createIntegration(page, `${name} host`),
        repo_url: `${host.url}/acme/support-bot`,
        ...config,
      },
      source_revision_config: { repo_ref: "main", graph_config_path: "langgraph.json" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

test("a deployment lists its previews, and the list filters them", async ({ page }) => {
  const parentId = await createCodehostDeployment(page, "preview-parent", {
    build_on_push: true,
    previews: { enabled: true, max_open: 3 },
  });

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
  await expect(page.getByLabel("Previews", { exact: true })).toHaveValue("exclude");
  await page.getByLabel("Previews", { exact: true }).selectOption("only");
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

test("previews are turned on in the settings form, by keyboard, within the API's limits", async ({
  page,
}) => {
  const id = await createCodehostDeployment(page, "preview-settings", { build_on_push: false });
  const stored = async () => {
    const res = await page.request.get(`/v2/deployments/${id}`);
    return ((await res.json()) as { source_config: Record<string, unknown> }).source_config;
  };
  await page.goto(`/deployments/${id}/settings`);
  const buildOnPush = page.getByRole("switch", { name: "Build on push" });
  const previews = page.getByRole("switch", { name: "Previews" });
  const maxOpen = page.getByLabel("Maximum open previews");
  const ttl = page.getByLabel("Delete after (hours without a push)");

  // Off until build on push is on, and saying why; the defaults are shown.
  await expect(previews).toBeDisabled();
  await expect(page.getByText(/Needs Build on push: turn it on first/)).toBeVisible();
  await expect(maxOpen).toHaveValue("5");
  await expect(ttl).toHaveValue("72");
  await expect(page.getByText(/A pull request from a fork never gets secrets/)).toBeVisible();

  // Keyboard only: Space flips a switch, arrows pick a radio.
  await buildOnPush.focus();
  await page.keyboard.press("Space");
  await expect(previews).toBeEnabled();
  await page.keyboard.press("Tab");
  await expect(previews).toBeFocused();
  await page.keyboard.press("Space");
  await expect(previews).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(maxOpen).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("51");
  await expect(maxOpen).toHaveValue("51");
  await page.keyboard.press("Tab");
  await expect(ttl).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("24");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: /No secrets/ })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("radio", { name: /Copy this deployment's secrets/ })).toBeChecked();
  await expect(page.getByRole("status").filter({ hasText: "Previews" })).toContainText(
    "will be saved without a new revision",
  );

  // Beyond the API's limit: the message, the field marked, nothing saved.
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Maximum open previews is at most 50")).toBeVisible();
  await expect(maxOpen).toHaveAttribute("aria-invalid", "true");
  await auditPage(page, "deployment-settings-previews-invalid");
  expect(await stored()).toMatchObject({ build_on_push: false, previews: null });

  await maxOpen.fill("3");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Saved: no new revision")).toBeVisible();
  await expect(page.getByText("No pending changes.")).toBeVisible();
  expect(await stored()).toMatchObject({
    build_on_push: true,
    previews: { enabled: true, max_open: 3, ttl_hours: 24, secrets: "inherit" },
  });

  // Build on push off while previews are on: the API's rule, before any request.
  await buildOnPush.uncheck();
  await expect(page.getByText(/Build on push is off: turn it back on/)).toBeVisible();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(
    page.getByText("Previews need Build on push: turn it on to build pull requests"),
  ).toBeVisible();
  expect(await stored()).toMatchObject({ build_on_push: true });
  await page.getByRole("button", { name: "Discard changes" }).click();

  // Readable on a phone: nothing scrolls sideways at 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText(/A pull request from a fork never gets secrets/)).toBeVisible();
  const sideways = await page.evaluate(
    () => document.scrollingElement!.scrollWidth - window.innerWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The Source card shows what was saved.
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await expect(
    page.getByText(
      "On: at most 3 open, deleted after 24 h without a push, secrets inherited (never for forks)",
    ),
  ).toBeVisible();
});

test("a fork's preview waits for an editor to approve its head commit, by keyboard", async ({
  page,
}) => {
  const parentId = await createCodehostDeployment(page, "fork-parent", {
    build_on_push: true,
    previews: { enabled: true },
  });
  const { pr, deliveries } = await host.pulls.open({
    repo: "acme/support-bot",
    title: "Outside help",
    author: "mallory",
    head: "patch-1",
    fork: "mallory/support-bot",
  });
  // Every integration of this spec hears the delivery; this parent's is one of them.
  expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => 202));
  const previewId = deliveries
    .flatMap((d) => d.body.previews)
    .find((p) => p.parent_id === parentId)!.preview_id!;
  const head = pr.headSha.slice(0, 7);
  const secrets = await page.request.patch(`/v2/deployments/${previewId}`, {
    data: { secrets: [{ name: "PREVIEW_TOKEN", value: "tok-for-reviewed-code" }] },
  });
  expect(secrets.status(), await secrets.text()).toBe(200);
  await waitForRevision(page, previewId, 2, "DEPLOYED");

  // The parent's list says the fork's head awaits approval; its page says what runs without.
  await page.goto(`/deployments/${parentId}`);
  await expect(page.getByText(/from a fork \(head awaits approval\)/)).toBeVisible();
  await page.goto(`/deployments/${previewId}`);
  await expect(
    page.getByText(`Head commit ${head} from mallory/support-bot awaits approval`),
  ).toBeVisible();
  await auditPage(page, "preview-fork-awaits-approval");

  // Keyboard only: the button, the confirmation (its confirm button has focus), Enter.
  const button = page.getByRole("button", { name: `Approve commit ${head}` });
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Approve commit ${head}?` });
  await expect(dialog).toContainText("will run with its 1 secret");
  // Escape cancels, nothing approved.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Approve and deploy" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toast(page, `Approved ${head}: redeploying with its secrets`)).toBeVisible();
  await expect(page.getByText(`Head commit ${head} is approved`)).toBeVisible();
  await expect(button).toBeHidden();
  const read = await page.request.get(`/v2/deployments/${previewId}`);
  const preview = (await read.json()) as {
    preview: { approved_sha: string; head_sha: string };
    latest_revision_id: string;
  };
  expect(preview.preview).toMatchObject({ approved_sha: pr.headSha, head_sha: pr.headSha });
  await waitForRevision(page, previewId, 3, "DEPLOYED");

  // A new commit from the fork: awaiting approval again, the earlier approval named.
  const pushed = await host.pulls.push("acme/support-bot", pr.number);
  expect(pushed.deliveries.map((d) => d.status)).toEqual(pushed.deliveries.map(() => 202));
  await page.reload();
  await expect(
    page.getByText(
      `Head commit ${pushed.pr.headSha.slice(0, 7)} from mallory/support-bot awaits approval`,
    ),
  ).toContainText(`approved before: ${head}`);

  // A viewer reads the same, with no button to approve.
  await page.context().clearCookies();
  await signIn(page, state.viewer);
  await page.goto(`/deployments/${previewId}`);
  await expect(page.getByText(/awaits approval: its revisions run without/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Approve commit/ })).toHaveCount(0);
});
