import type { Browser, Page } from "@playwright/test";

// The benchmarks' users sign in through the dashboard's own form, as a person would.

/** The password the benchmarks give the users they make. */
export const BENCH_PASSWORD = "bench-password-123";

/** A page of its own browser context, signed in on the server at `baseUrl`. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(BENCH_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/deployments$/);
  return page;
}
