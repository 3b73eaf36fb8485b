import { accessSync, constants } from "node:fs";
import path from "node:path";

// What the local builder's sandbox runs besides buildah: bubblewrap, and util-linux's setpriv
// and prlimit. Looked up once on PATH; a build on a worker without one fails saying which.

const SANDBOX_TOOLS = [
  { command: "bwrap", debian: "bubblewrap" },
  { command: "setpriv", debian: "util-linux" },
  { command: "prlimit", debian: "util-linux" },
];

function onPath(command: string): boolean {
  const candidates = command.includes("/")
    ? [command]
    : (process.env.PATH ?? "").split(":").map((dir) => path.join(dir, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A sentence naming what is missing (buildah first), or null when everything is installed. */
export function missingTools(buildah: string): string | null {
  if (!onPath(buildah))
    return `The ${buildah} command was not found on this worker (HANGAR_BUILDER=buildah): install it (Debian: apt-get install buildah), or choose another builder (README, Builds).`;
  const missing = SANDBOX_TOOLS.filter((tool) => !onPath(tool.command));
  if (!missing.length) return null;
  const packages = [...new Set(missing.map((tool) => tool.debian))].join(" ");
  return `Builds run in a sandbox that needs ${missing.map((t) => t.command).join(", ")} on this worker (HANGAR_BUILDER=buildah): install them (Debian: apt-get install ${packages}), or choose another builder (README, Builds).`;
}
