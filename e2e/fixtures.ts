import { test as base, expect, type Page } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

/** Where screenshots go, when the run takes them (E2E_SCREENSHOTS=1; README, Tests). */
export const SCREENSHOTS = "e2e-screenshots";
export const takeScreenshots = process.env.E2E_SCREENSHOTS === "1";

// axe-core's own build, injected into the page once per document.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe on the page as it is, with axe-core's `axe.run` in the page: every rule in the light
 * theme; in the dark theme only colour contrast, the one rule a theme changes (the DOM is the
 * same). axe is injected when the document lacks it (a full load), not on every run: the
 * @axe-core/playwright builder injected it each time and finished each run in a new page,
 * about 3 s an audit on the test machine, most of the end-to-end run's time.
 */
async function axeViolations(page: Page, colorScheme: "light" | "dark") {
  const injected = await page.evaluate(
    () => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === "function",
  );
  if (!injected) await page.evaluate(AXE_SOURCE);
  const options =
    colorScheme === "light"
      ? { resultTypes: ["violations"] }
      : { runOnly: { type: "rule", values: ["color-contrast"] }, resultTypes: ["violations"] };
  return page.evaluate(async (runOptions) => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: unknown): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    return (await axe.run(document, runOptions)).violations;
  }, options) as Promise<AxeViolation[]>;
}

/**
 * For both themes: no serious or critical axe violations, and with E2E_SCREENSHOTS=1 a
 * full-page screenshot in e2e-screenshots/<name>-<theme>.png. The app follows the system theme,
 * so emulating it switches.
 */
export async function auditPage(page: Page, name: string) {
  if (takeScreenshots) mkdirSync(SCREENSHOTS, { recursive: true });
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
    if (takeScreenshots)
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}
