// `npm test`: the whole suite. Prepares what it needs: PostgreSQL and Redis started when down,
// a build of the app, throwaway databases (made by the suites themselves), then runs them.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { ensurePostgres, ensureRedis } from "../tests/helpers/services";
import { buildIfStale } from "./build-if-stale";

await ensurePostgres();
await ensureRedis();
buildIfStale();

mkdirSync("test-results", { recursive: true });
const report = "test-results/vitest.json";
const vitest = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } },
);

let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number };
  passed = results.numPassedTests;
  failed = results.numFailedTests;
} catch {
  failed = Math.max(failed, 1);
}
const code = vitest.status === 0 && failed === 0 ? 0 : 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(code);
