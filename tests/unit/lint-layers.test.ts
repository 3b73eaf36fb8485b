import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// The layer rule (tools/lint/config.mjs) refuses imports against STYLE.md's direction, and lets
// the allowed ones through: checked on small sources placed where real files live.

const root = path.resolve(import.meta.dirname, "../..");
type Linter = {
  lintText(
    code: string,
    options: { filePath: string },
  ): Promise<{ messages: { ruleId: string | null; message: string }[] }[]>;
};
let eslint: Linter;

beforeAll(async () => {
  if (!existsSync(path.join(root, "tools/lint/node_modules/eslint"))) {
    execFileSync(process.execPath, ["--import", "tsx", "scripts/lint.ts", "--help"], { cwd: root });
  }
  const { ESLint } = await import(
    pathToFileURL(path.join(root, "tools/lint/node_modules/eslint/lib/api.js")).href
  );
  eslint = new ESLint({ cwd: root });
}, 120_000);

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages
    .filter((m) => m.ruleId === "boundaries/dependencies" || m.ruleId === "no-restricted-imports")
    .map((m) => m.message);
}

// The first lint loads the TypeScript parser and import resolver: seconds on a busy machine.
describe("import layers", { timeout: 60_000 }, () => {
  it.each([
    [
      "src/server/services/x.ts",
      `import { startWorker } from "@/server/jobs/worker";`,
      /"services" to elements of type "jobs"/,
    ],
    [
      "src/server/services/x.ts",
      `import { route } from "@/server/rest/route";`,
      /"services" to elements of type "door"/,
    ],
    [
      "src/server/jobs/x.ts",
      `import { appRouter } from "@/server/api/root";`,
      /"jobs" to elements of type "door"/,
    ],
    [
      "src/server/api/x.ts",
      `import { runTeardown } from "@/server/jobs/teardown";`,
      /"door" to elements of type "jobs"/,
    ],
    [
      "src/server/services/x.ts",
      `import x from "@/app/healthz/route";`,
      /"services" to elements of type "app"/,
    ],
    [
      "src/components/x.tsx",
      `import { getDb } from "@/server/db";`,
      /"client" to elements of type "db"/,
    ],
    [
      "src/components/x.tsx",
      `import { listDeployments } from "@/server/services/deployments/list";`,
      /"client" to elements of type "services"/,
    ],
    [
      "src/server/jobs/drivers/kubernetes.ts",
      `import { recordingDeployer } from "./recording";`,
      /recording \(dry-run\) driver/,
    ],
  ])("refuses %s importing %s", async (file, code, message) => {
    expect(await problems(file, `${code}\nexport {};\n`)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    [
      "src/app/v2/x/route.ts",
      `import { listDeployments } from "@/server/services/deployments/list";`,
    ],
    [
      "src/server/jobs/x.ts",
      `import { transition } from "@/server/services/revisions/transition";`,
    ],
    ["src/server/services/x.ts", `import { ACTIVE_STATUSES } from "@/schemas/revision-states";`],
    [
      "src/components/x.tsx",
      `import type { VersionedDeployment } from "@/server/services/deployments/read";`,
    ],
    ["src/components/x.tsx", `import { signOutAction } from "@/server/auth/actions";`],
  ])("allows %s importing %s", async (file, code) => {
    expect(await problems(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
