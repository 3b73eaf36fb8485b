import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./testing/chromium";

// End-to-end tests in Debian's Chromium against a real built server and a throwaway database
// (e2e/global-setup.ts). `npx playwright install` cannot download browsers here.
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // Tests share one seeded workspace; one worker keeps them independent on a 2-core machine.
  workers: 1,
  // Audited tests screenshot every page in two themes: generous, as a hang still fails.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  outputDir: "test-results/playwright",
  use: {
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
});
