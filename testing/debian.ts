import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

// What the suites need from Debian's packages, installed with apt-get when missing (the test
// machine has Debian's archive, not Playwright's browser downloads).

/** A package and the command (or absolute path) that shows it is installed. */
export interface DebianTool {
  command: string;
  debianPackage: string;
  /** A closer check than the command's presence (another package may provide the same path). */
  installed?: () => boolean;
}

const present = (command: string) =>
  command.startsWith("/")
    ? existsSync(command)
    : spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

export function ensureDebianPackages(tools: DebianTool[]): void {
  const missing = [
    ...new Set(
      tools
        .filter((t) => !present(t.command) || (t.installed && !t.installed()))
        .map((t) => t.debianPackage),
    ),
  ];
  if (missing.length === 0) return;
  console.log(`Installing ${missing.join(", ")} (apt-get)...`);
  const run = (args: string[]) => {
    const result = spawnSync("apt-get", args, { stdio: "inherit" });
    if (result.status !== 0)
      throw new Error(`apt-get ${args.join(" ")} failed: install ${missing.join(", ")}`);
  };
  run(["update", "-qq"]);
  run(["install", "-y", "-qq", ...missing]);
}
