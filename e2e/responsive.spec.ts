import type { Page } from "@playwright/test";
import { expect, signIn, state, test } from "./fixtures";

// Issue 17: every page is usable on a phone (390 px) without sideways scrolling, and the main
// navigation collapses behind a menu button that works from the keyboard.

test.use({ viewport: { width: 390, height: 844 } });

/** How far the page is wider than the window, and the outermost elements that stick out. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const extra = document.scrollingElement!.scrollWidth - window.innerWidth;
    const out = (e: Element | null) =>
      !!e && e.getBoundingClientRect().right > window.innerWidth + 1;
    const culprits = [...document.querySelectorAll("main *, header *")]
      .filter((e) => out(e) && !out(e.parentElement))
      .slice(0, 3)
      .map((e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}">`);
    return { extra, culprits };
  });

test("no page scrolls sideways at 390 px", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, state.admin);
  const deployment = `/deployments/${state.deployments["support-agent-canary"]}`;
  await page.goto(`${deployment}/revisions`);
  const revision = await page
    .getByRole("table", { name: "Revisions" })
    .getByRole("link", { name: /^#\d+$/ })
    .first()
    .getAttribute("href");
  const pages = [
    "/deployments",
    deployment,
    `${deployment}/revisions`,
    revision!,
    `${deployment}/settings`,
    `${deployment}/secrets`,
    `${deployment}/tags`,
    `${deployment}/connections`,
    `${deployment}/traces`,
    "/tracing",
    "/import",
    "/providers",
    "/providers/new",
    "/connected-accounts",
    "/settings/api-keys",
    "/settings/members",
    "/settings/integrations",
    "/settings/audit",
    "/settings/sessions",
    "/settings/tags",
    "/settings/account",
    "/no-such-page",
  ];
  const wide: string[] = [];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
    const { extra, culprits } = await overflow(page);
    if (extra > 0) wide.push(`${path}: ${extra} px too wide: ${culprits.join(" ")}`);
  }
  expect(wide).toEqual([]);
});

test("the navigation collapses behind a menu button usable by keyboard", async ({ page }) => {
  await signIn(page, state.admin);
  await page.goto("/deployments");
  // The list connects its live updates once the page is interactive (hydrated).
  await expect(page.getByText("Updating live")).toBeVisible();
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  const nav = page.getByRole("navigation", { name: "Main" });
  // Exact: deployments named settings-… are links on the same page.
  await expect(nav.getByRole("link", { name: "Settings", exact: true })).toBeHidden();

  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  // Opening moves focus to the first section; Escape closes and returns it to the button.
  await expect(nav.getByRole("link", { name: "Deployments", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(nav.getByRole("link", { name: "Deployments", exact: true })).toBeFocused();
  // Tab through the sections before it (their number grows as pages are added).
  const before = (await nav.getByRole("link").allTextContents()).indexOf("Settings");
  for (let i = 0; i < before; i++) await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Settings", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  // The deployment's tabs stay reachable: Revisions is on screen or scrolls into it.
  await page.goto(`/deployments/${state.deployments["billing-bot"]}`);
  const tabs = page.getByRole("navigation", { name: "Deployment sections" });
  await tabs.getByRole("link", { name: "Revisions" }).click();
  await expect(page).toHaveURL(/\/revisions$/);
});
