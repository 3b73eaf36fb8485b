import { chromium, type Browser, type Page } from "@playwright/test";
import { hashPassword } from "../src/server/auth/passwords";
import type { Db } from "../src/server/db";
import { chromiumLaunchOptions, ensureChromium } from "../testing/chromium";
import { BENCH_PASSWORD } from "./signed-in-page";

// bench:health's dashboard in Chromium: a deployment's overview and its Logs tab, opened on one
// server or on two (this checkout's and a build of older code on the same database and cluster),
// signed in as a viewer of the bench workspace. What both versions' pages have is what is read:
// the header badge, the Running field, the Logs tab's rows.

/** A viewer of the workspace who signs in with a password. */
export async function benchViewer(db: Db, ws: { id: string }): Promise<string> {
  const email = `bench-pages-${ws.id}@example.test`;
  const user = await db.user.create({
    data: { email, name: "bench pages", passwordHash: await hashPassword(BENCH_PASSWORD) },
  });
  await db.membership.create({ data: { userId: user.id, workspaceId: ws.id, role: "viewer" } });
  return email;
}

export async function launchBenchBrowser(): Promise<Browser> {
  ensureChromium();
  return chromium.launch(chromiumLaunchOptions);
}

export type Health = "healthy" | "unhealthy";

/**
 * Resolves once the overview shows the deployment `want`: the Running field's badge reads
 * Healthy / Unhealthy and the header badge agrees (Live / anything not live: this code says
 * Unhealthy, older code said Unknown). Checked on every frame.
 */
export function overviewShows(page: Page, want: Health, timeout = 30_000): Promise<unknown> {
  return page.waitForFunction(
    (want) => {
      const header = document.querySelector("h1")?.textContent ?? "";
      const term = [...document.querySelectorAll("dt")].find(
        (dt) => dt.textContent?.trim() === "Running",
      );
      const running = term?.nextElementSibling?.textContent ?? "";
      // "Unhealthy" does not contain "Healthy" (case): each word stands for itself.
      return want === "healthy"
        ? header.includes("Live") && running.includes("Healthy")
        : !header.includes("Live") && running.includes("Unhealthy");
    },
    want,
    { polling: "raf", timeout },
  );
}

/** Opens a deployment's overview and waits until it shows the deployment `want`. */
export async function openOverview(page: Page, id: string, want: Health): Promise<void> {
  await page.goto(`/deployments/${id}`, { waitUntil: "commit" });
  await overviewShows(page, want);
}

/** Milliseconds from starting the navigation to the Logs tab until its first line's row shows. */
export async function timeToFirstLogLine(page: Page, id: string): Promise<number> {
  const started = performance.now();
  await page.goto(`/deployments/${id}/logs`, { waitUntil: "commit" });
  await page
    .locator('[role="log"][aria-label="Runtime log"] > div')
    .first()
    .waitFor({ state: "visible", timeout: 30_000 });
  return performance.now() - started;
}
