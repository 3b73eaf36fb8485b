// `npm test`: the whole suite. Prepares what it needs: PostgreSQL and Redis started when down,
// Debian's Chromium, container registry, skopeo, buildah (with its sandbox's tools) and static
// busybox installed when missing, a build of the app, throwaway databases (made by the suites
// themselves), then runs the suites in stages (below) — the lint (one check: the layer rule
// among them) beside vitest's unit and integration files, then its launcher files beside the
// Playwright end-to-end tests — each line prefixed with its suite, and reports one total with
// each suite's time. Not all at once: on two cores that starved the suites into timeouts.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
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
// Once, before the suites start: each suite's own check then finds the build fresh.
buildIfStale();

mkdirSync("test-results", { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two reporters' JSON shapes
type Report = any;

interface Suite {
  name: string;
  args: string[];
  /** The suite's JSON report, how to count it and name its failures; none: its exit status is
   * its one result. */
  report?: {
    file: string;
    count: (json: Report) => [number, number];
    failures: (json: Report) => string[];
  };
}

interface Result {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
  /** Each failed test as "file › title", for the summary's last lines. */
  failures: string[];
}

/** Vitest's JSON report: its failed tests. */
function vitestFailures(report: Report): string[] {
  const cwd = `${process.cwd()}/`;
  return (report.testResults ?? []).flatMap((file: Report) => {
    const path = String(file.name ?? "").replace(cwd, "");
    const failed = (file.assertionResults ?? []).filter((t: Report) => t.status === "failed");
    if (failed.length === 0 && file.status === "failed")
      return [`${path} › ${file.message ?? "failed to run"}`];
    return failed.map((t: Report) => `${path} › ${t.fullName}`);
  });
}

/** Playwright's JSON report: its tests that ended unexpectedly. */
function playwrightFailures(report: Report): string[] {
  const walk = (suite: Report): string[] => [
    ...(suite.specs ?? []).flatMap((spec: Report) =>
      (spec.tests ?? []).some((t: Report) => t.status === "unexpected")
        ? [`${spec.file}:${spec.line} › ${spec.title}`]
        : [],
    ),
    ...(suite.suites ?? []).flatMap(walk),
  ];
  return (report.suites ?? []).flatMap(walk);
}

/** Runs a suite, its output prefixed line by line; its passed and failed counts and seconds. */
function run(suite: Suite) {
  if (suite.report) rmSync(suite.report.file, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, suite.args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = `[${suite.name}] `;
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) =>
      process.stdout.write(`${prefix}${line}\n`),
    );
  return new Promise<Result>((resolve) => {
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const ok = code === 0;
      const name = suite.name;
      if (!suite.report)
        return resolve({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds, failures: [] });
      try {
        const json = JSON.parse(readFileSync(suite.report.file, "utf8"));
        const [passed, failed] = suite.report.count(json);
        const failures = suite.report.failures(json);
        resolve({ name, passed, failed: ok ? failed : Math.max(failed, 1), seconds, failures });
      } catch {
        resolve({
          name,
          passed: 0,
          failed: 1,
          seconds,
          failures: [`no report in ${suite.report.file}`],
        });
      }
    });
  });
}

/** A vitest run of some projects, its JSON report in its own file. */
function vitest(name: string, projects: string[]): Suite {
  const file = `test-results/${name}.json`;
  return {
    name,
    args: [
      "node_modules/vitest/vitest.mjs",
      "run",
      ...projects.map((project) => `--project=${project}`),
      "--passWithNoTests",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${file}`,
      ...process.argv.slice(2),
    ],
    report: { file, count: (r) => [r.numPassedTests, r.numFailedTests], failures: vitestFailures },
  };
}

const lint: Suite = { name: "lint", args: ["--import", "tsx", "scripts/lint.ts"] };
const e2e: Suite = {
  name: "e2e",
  args: ["node_modules/@playwright/test/cli.js", "test"],
  // Playwright's json reporter (playwright.config.ts) writes this file.
  report: {
    file: "test-results/playwright.json",
    count: (r) => [r.stats.expected + r.stats.flaky, r.stats.unexpected],
    failures: playwrightFailures,
  },
};

// Stages, one after another; the suites of a stage side by side. The unit and integration files
// keep both cores busy on their own (the lint's half minute beside them). The launcher's files
// (one at a time, whole Hangar instances that mostly wait on processes) and Playwright (one
// browser, one server) each leave a core mostly idle, so they share a stage.
const stages: Suite[][] = [
  [lint, vitest("vitest", ["unit", "integration"])],
  [vitest("launcher", ["launcher"]), e2e],
];
const results: Result[] = [];
for (const stage of stages) results.push(...(await Promise.all(stage.map(run))));
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log(
  `\n${results.map((r) => `${r.name}: ${r.passed} passed, ${r.failed} failed in ${Math.round(r.seconds)} s`).join("; ")}`,
);
for (const r of results) for (const f of r.failures) console.log(`failed: [${r.name}] ${f}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
