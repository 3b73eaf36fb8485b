import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// `next build` when there is no build yet or a source file is newer than it.
const inputs = [
  "src",
  "public",
  "prisma/schema.prisma",
  "next.config.mjs",
  "package.json",
  "tailwind.config.ts",
  "postcss.config.mjs",
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(target, name))),
    stat.mtimeMs,
  );
}

/** `prisma generate` when the schema is newer than the generated client (a pull after install). */
function generateIfStale(cwd: string): void {
  const schema = newestMtime(path.join(cwd, "prisma", "schema.prisma"));
  const generated = newestMtime(path.join(cwd, "src", "generated", "prisma"));
  if (generated && generated >= schema) return;
  console.log("Generating the Prisma client (the schema changed)...");
  const result = spawnSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd, stdio: "inherit" });
  if (result.status !== 0) throw new Error("prisma generate failed");
}

export function buildIfStale(cwd = process.cwd()): void {
  generateIfStale(cwd);
  const buildId = path.join(cwd, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changed = Math.max(...inputs.map((p) => newestMtime(path.join(cwd, p))));
  if (built && built >= changed) return;
  console.log("Building the app (next build)...");
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    cwd,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}
