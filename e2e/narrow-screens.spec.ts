import type { Locator } from "@playwright/test";
import { createDeployment, patchDeployment } from "./deployment-helpers";
import { expect, signIn, state, test } from "./fixtures";

// Issue 25's walk through the dashboard on a phone (390 px): labels on one line, the workspace's
// whole name, image references broken only after `/`, `@` or `:`; and an unknown deployment's
// page answers HTTP 404.

test.use({ viewport: { width: 390, height: 844 } });

/** How many lines an element's text takes. */
const lines = (locator: Locator) =>
  locator.evaluate((el) => {
    const height = el.getBoundingClientRect().height;
    return Math.round(height / parseFloat(getComputedStyle(el).lineHeight));
  });

test("the list's pager and the header's workspace fit at 390 px", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
  const rowsLabel = page.getByText("Rows per page", { exact: true });
  await expect(rowsLabel).toBeVisible();
  expect(await lines(rowsLabel)).toBe(1);

  // The admin has two workspaces: a select showing the current one's whole name.
  const switcher = page.getByLabel("Workspace", { exact: true });
  await expect(switcher).toBeVisible();
  const fits = await switcher.evaluate((el) => {
    const select = el as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText(select.selectedOptions[0]!.text).width;
    const room =
      select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: select.selectedOptions[0]!.text, width: text, room };
  });
  expect(fits.text).toBe("Default workspace");
  expect(fits.width).toBeLessThanOrEqual(fits.room);

  // The theme moved into the menu, and still works from it.
  await page.getByRole("button", { name: "Menu" }).click();
  const theme = page.getByRole("group", { name: "Theme" });
  await theme.getByRole("button", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await theme.getByRole("button", { name: "System" }).click();
});

test("a Source card's image wraps only after / @ : or - at 390 px", async ({ page }) => {
  await signIn(page, state.admin);
  // Long parts without a hyphen: nothing but the added break points lets this wrap cleanly.
  const name = `wrapcheck${Date.now().toString(36)}`;
  const uri = `registry.example.com/agentplatformteam/${name}researchassistant:2024.11.26`;
  const id = await createDeployment(page, name);
  await patchDeployment(page, id, { source_revision_config: { image_uri: uri } });
  await page.goto(`/deployments/${id}`);
  const image = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Source" }) })
    .locator(`span[title="${uri}"]`);
  await expect(image).toHaveText(uri);
  // It does wrap here, and each line starts after a `/`, `@`, `:` or `-`, never inside a name.
  const breaks = await image.evaluate((el) => {
    const text = el.textContent!;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const tops: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1]! ? [text[i - 1]] : []));
  });
  expect(breaks.length).toBeGreaterThan(0);
  for (const after of breaks) expect("/@:-").toContain(after);
});

test("an unknown deployment's page answers 404", async ({ page }) => {
  await signIn(page, state.viewer);
  for (const path of [`/deployments/${crypto.randomUUID()}`, "/deployments/no-such-id"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Deployment not found" })).toBeVisible();
  }
});
