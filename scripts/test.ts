// `npm test`: the whole suite. Prepares what it needs: PostgreSQL and Redis started when down,
// Debian's Chromium, container registry, skopeo, buildah and static busybox installed when
// missing, a build of the app, throwaway databases (made by the suites themselves), then runs the
// lint (one check: the layer rule among them), vitest and the Playwright end-to-end tests, and
// reports one total.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureBuildTools } from "../testing/base-image";
import { ensureChromium } from "../testing/chromium";
import { ensureRegistryTools } from "../testing/registry";
import { ensurePostgres, ensureRedis } from "../testing/services";
import { buildIfStale } from "./build-if-stale";

await ensurePostgres();
await ensureRedis();
ensureRegistryTools();
ensureBuildTools();
ensureChromium();
buildIfStale();

mkdirSync("test-results", { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two reporters' JSON shapes
type Report = any;

const lintPassed =
  spawnSync(process.execPath, ["--import", "tsx", "scripts/lint.ts"], {
    stdio: "inherit",
    env,
  }).status === 0;
const lint = { passed: lintPassed ? 1 : 0, failed: lintPassed ? 0 : 1 };

/** Runs one suite and reads its JSON report; a missing report counts as one failure. */
function run(args: string[], report: string, count: (json: Report) => [number, number]) {
  rmSync(report, { force: true });
  const child = spawnSync(process.execPath, args, { stdio: "inherit", env });
  try {
    const [passed, failed] = count(JSON.parse(readFileSync(report, "utf8")));
    return { passed, failed: child.status === 0 ? failed : Math.max(failed, 1) };
  } catch {
    return { passed: 0, failed: 1 };
  }
}

const vitestReport = "test-results/vitest.json";
const vitest = run(
  [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestReport}`,
    ...process.argv.slice(2),
  ],
  vitestReport,
  (r) => [r.numPassedTests, r.numFailedTests],
);

// Playwright's json reporter (playwright.config.ts) writes this file.
const e2e = run(
  ["node_modules/@playwright/test/cli.js", "test"],
  "test-results/playwright.json",
  (r) => [r.stats.expected + r.stats.flaky, r.stats.unexpected],
);

const passed = lint.passed + vitest.passed + e2e.passed;
const failed = lint.failed + vitest.failed + e2e.failed;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
