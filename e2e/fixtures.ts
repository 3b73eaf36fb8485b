import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import type { E2eState } from "./seed";

export const state: E2eState = JSON.parse(process.env.E2E_STATE ?? "null");

export const test = base.extend({
  baseURL: async ({}, use) => use(state.baseUrl),
});
export { expect };

/**
 * Signs `page`'s browser context in through Auth.js's credentials endpoint (the form itself is
 * tested in auth.spec.ts): a session cookie, and no page loaded, so each test's first navigation
 * is its own. The same rate limit and session bookkeeping apply as to the form.
 */
export async function signIn(page: Page, user: { email: string; password: string }) {
  const csrf = await page.request.get("/api/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken, callbackUrl: "/deployments" },
    maxRedirects: 0,
  });
  expect(res.headers()["location"], "signed in").toMatch(/\/deployments$/);
}

const SCREENSHOTS = "e2e-screenshots";

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

/**
 * axe on the page as it is: every rule in the light theme; in the dark theme only colour
 * contrast, the one rule a theme changes (the DOM is the same), run with the axe the light run
 * injected (injecting it costs a second a run on the test machine).
 */
async function axeViolations(page: Page, colorScheme: "light" | "dark") {
  if (colorScheme === "light")
    return (await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze())
      .violations;
  const results = await page.evaluate(() => {
    const axe = (window as unknown as { axe?: { run(...args: unknown[]): Promise<unknown> } }).axe;
    return axe?.run(document, {
      runOnly: { type: "rule", values: ["color-contrast"] },
      resultTypes: ["violations"],
    });
  });
  if (!results) throw new Error("axe was not injected by the light theme's run");
  return (results as AxeResults).violations;
}

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
    const serious = (await axeViolations(page, colorScheme))
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
