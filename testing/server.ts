import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { freePort } from "../src/lib/free-port";
import { gateClient, type GateClient } from "./gate";

export { freePort };

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Shared secrets for every server of one test run (so instances can read each other's data). */
export const testSecrets = {
  HANGAR_ENCRYPTION_KEY: process.env.TEST_ENCRYPTION_KEY ?? randomBytes(32).toString("hex"),
  AUTH_SECRET: process.env.TEST_AUTH_SECRET ?? randomBytes(32).toString("hex"),
};

/**
 * Starts the built app (`next start`) against a database; resolves when it answers /healthz.
 * `cwd`: another checkout's build (a benchmark's "before"); this one by default.
 */
export async function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  { cwd = process.cwd() }: { cwd?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  let output = "";
  const next = path.resolve(cwd, "node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [...nodeArgs, next, "start", "-p", String(port)], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      ...testSecrets,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://localhost:${port}`;
  // Wait for the port (a TCP probe is not an HTTP request, so it spends no rate-limit budget),
  // then ask /healthz once.
  for (let i = 0; i < 240 && !(await portOpen(port)); i++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const health = await fetch(`${url}/healthz`).catch((error: Error) => error);
  if (health instanceof Error || !health.ok) {
    child.kill("SIGKILL");
    throw new Error(`server did not become healthy:\n${output}`);
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface RunningWorker {
  process: ChildProcess;
  output: () => string;
  /** The gate of a gated worker (startWorkerProcess(env, { gated: true })). */
  gate?: GateClient;
  gateUrl?: string;
  stop: () => Promise<void>;
}

/**
 * Starts a worker process against a database; resolves once it is taking jobs. `scripts/worker.ts`
 * by default; `gated` runs testing/gated-worker.ts, whose steps tests hold and release (`gate`);
 * `entry` runs another (the benchmarks' worker with slow drivers).
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  options: { gated?: boolean; entry?: string; startTimeoutMs?: number } = {},
): Promise<RunningWorker> {
  let output = "";
  const entry = options.entry ?? (options.gated ? "testing/gated-worker.ts" : "scripts/worker.ts");
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(entry)], {
    env: { ...process.env, ...testSecrets, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const polls = (options.startTimeoutMs ?? 24_000) / 100;
  for (let i = 0; i < polls && !output.includes('"worker started"'); i++) {
    if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!output.includes('"worker started"')) throw new Error(`worker did not start:\n${output}`);
  const gateUrl = /"msg":"gate listening","url":"([^"]+)"/.exec(output)?.[1];
  return {
    process: child,
    output: () => output,
    gate: gateUrl ? gateClient(gateUrl) : undefined,
    gateUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
