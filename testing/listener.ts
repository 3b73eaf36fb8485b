import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface RunningListener {
  process: ChildProcess;
  output: () => string;
  /** SIGTERM, and wait for the exit. */
  stop: () => Promise<void>;
  /** SIGKILL: a replica that dies mid-apply. */
  kill: () => Promise<void>;
}

/** Starts `scripts/listener.ts` (what `npm run listener` runs); resolves once it polls. */
export async function startListenerProcess(env: Record<string, string>): Promise<RunningListener> {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/listener.ts")], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  for (let i = 0; i < 1200 && !output.includes('"listener started"'); i++) {
    if (child.exitCode !== null) throw new Error(`listener exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!output.includes('"listener started"')) throw new Error(`listener did not start:\n${output}`);
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return {
    process: child,
    output: () => output,
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
  };
}
