// `npm run lint`: ESLint with typescript-eslint and the layer rule (tools/lint/config.mjs).
// ESLint lives in tools/lint with its own install: typescript-eslint needs TypeScript's JS API,
// which the project's TypeScript (the native 7.x compiler) does not have. Installed on first use.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const LINT_DIR = "tools/lint";
const installed = `${LINT_DIR}/node_modules/.package-lock.json`;

function run(command: string, args: string[]): number {
  return spawnSync(command, args, { stdio: "inherit" }).status ?? 1;
}

if (
  !existsSync(installed) ||
  statSync(installed).mtimeMs < statSync(`${LINT_DIR}/package-lock.json`).mtimeMs
) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const status = run(npm, ["install", "--prefix", LINT_DIR, "--no-audit", "--no-fund"]);
  if (status !== 0) process.exit(status);
}

process.exit(
  run(process.execPath, [
    `${LINT_DIR}/node_modules/eslint/bin/eslint.js`,
    "--cache",
    "--cache-location",
    "node_modules/.cache/eslint/",
    "--max-warnings=0",
    ...process.argv.slice(2),
    ".",
  ]),
);
