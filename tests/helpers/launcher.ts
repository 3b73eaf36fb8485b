import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../src/lib/free-port";

// Runs Hangar the way a newcomer does, `npm start` (scripts/start.ts), in its own process group
// so a test can stop it as Ctrl-C would, or SIGKILL the whole group.

export const LAUNCHER_KEY = "hgr_launcher_bootstrap_key_0123456789abcdef";

export interface Launched {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Sends a signal to the whole process group and waits for the launcher to exit. */
  signal: (signal: NodeJS.Signals) => Promise<number | null>;
}

export const newDataDir = () => mkdtemp(path.join(os.tmpdir(), "hangar-data-"));

/** The embedded PostgreSQL's postmaster, from its lock file in the data folder. */
export const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

/**
 * `npm start` with no configuration but a data folder, a port and a bootstrap key (to call the
 * API); `databaseUrl` makes it the external-PostgreSQL variant.
 */
export async function launchHangar(
  dataDir: string,
  options: { databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<Launched> {
  const port = await freePort();
  const env = {
    ...process.env,
    ...options.env,
    PORT: String(port),
    HANGAR_DATA_DIR: dataDir,
    HANGAR_BOOTSTRAP_API_KEY: LAUNCHER_KEY,
  };
  // Nothing of the test run's own configuration leaks in: the defaults are what is under test.
  for (const key of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|AUTH_|HANGAR_(?!DATA_DIR$|BOOTSTRAP_API_KEY$))/.test(key))
      if (!(key in (options.env ?? {}))) delete env[key as keyof typeof env];
  }
  if (options.databaseUrl) Object.assign(env, { DATABASE_URL: options.databaseUrl });
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exitCode = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    // /readyz answers 200 once the database is reachable; the bootstrap runs before the port opens.
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready && output.includes('"worker started"')) break;
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`npm start did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    signal: async (signal) => {
      if (child.exitCode === null) process.kill(-child.pid!, signal);
      return exitCode;
    },
  };
}
