import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// HANGAR_BUILDER pushes images to Hangar's registry: a process configured with a builder and no
// registry refuses to start, saying what to set.

/** Imports the environment's parsing in a process of its own, with no registry configured. */
function startWith(env: Record<string, string | undefined>) {
  const childEnv = { ...process.env, ...env };
  for (const name of Object.keys(childEnv))
    if (name.startsWith("HANGAR_REGISTRY") || childEnv[name] === undefined) delete childEnv[name];
  return spawnSync(
    process.execPath,
    ["--import", "tsx", "-e", 'await import("./src/env.ts"); console.log("started")'],
    { env: childEnv, encoding: "utf8", timeout: 60_000 },
  );
}

// Each case starts node processes with tsx: seconds each on a busy machine.
describe("HANGAR_BUILDER at start", { timeout: 60_000 }, () => {
  it("is refused without HANGAR_REGISTRY_URL, with what to set", () => {
    for (const builder of ["buildah", "kubernetes"]) {
      const run = startWith({ HANGAR_BUILDER: builder });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain(
        `HANGAR_BUILDER=${builder} pushes images to Hangar's registry: set HANGAR_REGISTRY_URL`,
      );
    }
    expect(startWith({ HANGAR_BUILDER: "docker" }).stderr).toContain("HANGAR_BUILDER");
  });

  it("starts with a registry, or with no builder at all", () => {
    expect(startWith({ HANGAR_BUILDER: undefined }).stdout).toContain("started");
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "-e", 'await import("./src/env.ts"); console.log("started")'],
      {
        env: { ...process.env, HANGAR_BUILDER: "buildah", HANGAR_REGISTRY_URL: "registry:5000" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(run.stdout, run.stderr).toContain("started");
  });
});
