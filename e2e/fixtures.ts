import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import type { E2eState } from "./seed";

export const state: E2eState = JSON.parse(process.env.E2E_STATE ?? "null");

export const test = base.extend({
  baseURL: async ({}, use) => use(state.baseUrl),
});
export { expect };

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/deployments$/);
}

const SCREENSHOTS = "e2e-screenshots";

/**
 * For both themes: no serious or critical axe violations, and a full-page screenshot in
 * e2e-screenshots/<name>-<theme>.png. The app follows the system theme, so emulating it switches.
 */
export async function auditPage(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    // Page titles come from generateMetadata, which Next streams after the body on a client-side
    // navigation: audit the page once its title has arrived, as a user would see it.
    await expect(page).toHaveTitle(/Hangar$/);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
      );
    expect(serious, `${name} in ${colorScheme}`).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}
