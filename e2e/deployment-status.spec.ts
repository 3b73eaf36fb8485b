import type { Page } from "@playwright/test";
import { createDeployment, toast, waitForRevision } from "./deployment-helpers";
import { auditPage, expect, signIn, state, test } from "./fixtures";

// The truthful status (one model: src/schemas/deployment-status.ts), retry, live list, sorting.

const table = (page: Page) => page.getByRole("table", { name: "Deployments" });
const names = (page: Page) => table(page).locator("tbody tr td:first-child a");
const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test.beforeEach(async ({ page }) => signIn(page, state.admin));

/** A code-host deployment of a branch that does not exist: its first revision fails creating. */
async function createFailingDeployment(page: Page, name: string) {
  const integration = await page.request.post("/v1/integrations/codehost", {
    data: {
      name: `status-host-${name}`,
      api_base_url: process.env.E2E_CODEHOST_URL,
      token: "codehost-dev-token",
    },
  });
  expect(integration.status(), await integration.text()).toBe(201);
  const integrationId = ((await integration.json()) as { id: string }).id;
  const res = await page.request.post("/v2/deployments", {
    data: {
      name,
      source: "codehost",
      source_config: {
        integration_id: integrationId,
        repo_url: `${process.env.E2E_CODEHOST_URL}/acme/support-bot`,
      },
      source_revision_config: {
        repo_ref: "nonexistent-branch",
        graph_config_path: "langgraph.json",
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  return { id, integrationId };
}

/** The import wizard's spec expects no integration: leave none behind. */
async function removeDeployment(page: Page, id: string, integrationId: string) {
  expect((await page.request.delete(`/v2/deployments/${id}`)).status()).toBe(204);
  await expect
    .poll(async () => (await page.request.get(`/v2/deployments/${id}`)).status(), {
      timeout: 30_000,
    })
    .toBe(404);
  const res = await page.request.delete(`/v1/integrations/codehost/${integrationId}`);
  expect(res.status(), await res.text()).toBe(204);
}

test("a failed deployment says so and why, filters as failed, and retries", async ({ page }) => {
  // Three revisions through the engine, two dialogs and two audits: one long scenario.
  test.slow();
  const { id, integrationId } = await createFailingDeployment(page, "fails-to-create");
  try {
    await waitForRevision(page, id, 1, "CREATE_FAILED");

    // The list: the badge says Failed, and the status menu picks it out.
    await page.goto("/deployments?name_contains=fails-to");
    const row = table(page).locator("tbody tr").filter({ hasText: "fails-to-create" });
    await expect(row.getByText("Failed", { exact: true })).toBeVisible();
    await page.goto("/deployments");
    await expect(page.getByText("Updating live")).toBeVisible();
    await page.getByRole("button", { name: "Status", exact: true }).click();
    await page.getByLabel("Failed").check();
    await expect(page).toHaveURL(/status=FAILED/);
    await page.keyboard.press("Escape");
    await expect(names(page)).toHaveText(["fails-to-create"]);
    await expect(page.getByText("Showing 1–1 of 1 deployment")).toBeVisible();
    await auditPage(page, "deployments-failed-filter");

    // The overview: the badge and the reason.
    await names(page).first().click();
    await expect(heading(page)).toContainText("Failed");
    await expect(
      page.getByText(
        'Revision #1 create failed: Branch "nonexistent-branch" not found in acme/support-bot',
      ),
    ).toBeVisible();
    await auditPage(page, "deployment-failed");

    // Retry the failed latest revision from the revisions tab.
    await page
      .getByRole("navigation", { name: "Deployment sections" })
      .getByRole("link", { name: "Revisions" })
      .click();
    await page.getByRole("button", { name: "Redeploy revision #1" }).click();
    await page
      .getByRole("dialog", { name: "Redeploy revision #1?" })
      .getByRole("button", { name: "Redeploy" })
      .click();
    await expect(toast(page, "Redeploying revision #1 as revision #2")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Revision #2", exact: true })).toBeVisible();
    await waitForRevision(page, id, 2, "CREATE_FAILED");

    // And "Deploy now" on the overview cuts the next one.
    await page.goto(`/deployments/${id}`);
    await expect(page.getByText("Revision #2 create failed:")).toBeVisible();
    await page.getByRole("button", { name: "Deploy now" }).click();
    await page
      .getByRole("dialog", { name: "Deploy now?" })
      .getByRole("button", { name: "Deploy" })
      .click();
    await expect(toast(page, "Deploying revision #3")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Revision #3", exact: true })).toBeVisible();
  } finally {
    await removeDeployment(page, id, integrationId);
  }
});

test("a deployment created through the API appears in an open list, then goes live", async ({
  page,
}) => {
  await page.goto("/deployments?name_contains=appears-live");
  await expect(
    page.getByRole("heading", { name: "No deployments match these filters" }),
  ).toBeVisible();
  await createDeployment(page, "appears-live-1");
  await expect(names(page)).toHaveText(["appears-live-1"]);
  const row = table(page).locator("tbody tr").first();
  // The engine's moves arrive too: from in progress to a (dry-run) live revision.
  await expect(row).toContainText("Dry run, revision #1", { timeout: 30_000 });
  await expect(page.getByText("Showing 1–1 of 1 deployment")).toBeVisible();
});

test("columns sort on the server, and the sort is in the URL", async ({ page }) => {
  // Four page loads and an audit in both themes.
  test.slow();
  await page.goto("/deployments?name_contains=support");
  await expect(names(page)).toHaveText(["support-agent-canary", "support-agent"]);
  // The page is interactive once its live stream is connected.
  await expect(page.getByText("Updating live")).toBeVisible();
  const name = table(page).getByRole("columnheader", { name: "Sort by name" });
  await expect(table(page).getByRole("columnheader", { name: "Sort by created" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  await name.getByRole("button").click();
  await expect(page).toHaveURL(/sort=name&dir=asc/);
  await expect(name).toHaveAttribute("aria-sort", "ascending");
  await expect(names(page)).toHaveText(["support-agent", "support-agent-canary"]);
  await name.getByRole("button").click();
  await expect(page).toHaveURL(/sort=name&dir=desc/);
  await expect(names(page)).toHaveText(["support-agent-canary", "support-agent"]);
  await auditPage(page, "deployments-sorted");

  await page.goto("/deployments?name_contains=support&sort=created&dir=asc");
  await expect(names(page)).toHaveText(["support-agent", "support-agent-canary"]);
  await expect(page.getByText("Showing 1–2 of 2 deployments")).toBeVisible();
});
