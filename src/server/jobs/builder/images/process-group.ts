import { spawn } from "node:child_process";
import { readLogLines } from "./line-reader";

// A builder's command in a process group of its own, its output line by line as it happens, and
// the whole group stopped when the build is aborted: SIGTERM at once (the tool tidies its
// storage, its children die), SIGKILL for whatever is left after a short grace.

const KILL_GRACE_MS = 3000;

export class CommandNotFound extends Error {
  override name = "CommandNotFound";
}

export interface GroupRun {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  /** It was stopped by the abort signal. */
  aborted: boolean;
}

export interface GroupOptions {
  /** The command's whole environment (nothing of the worker's is passed unless listed). */
  env: Record<string, string>;
  cwd?: string;
  /** Runs the command as this user (the caller is root). */
  runAs?: { uid: number; gid: number };
  signal: AbortSignal;
  /** Every line of stdout and stderr, in the order they arrive (harmless, cut: line-reader.ts). */
  onLine(line: string): void;
}

const killGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
};

export function runInGroup(command: string, args: string[], options: GroupOptions) {
  return new Promise<GroupRun>((resolve, reject) => {
    if (options.signal.aborted) return resolve({ code: null, aborted: true });
    const child = spawn(command, args, {
      cwd: options.cwd,
      // Next's types require NODE_ENV in every environment; the command needs none.
      env: options.env as NodeJS.ProcessEnv,
      ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let aborted = false;
    let killer: NodeJS.Timeout | null = null;
    const onAbort = () => {
      aborted = true;
      if (!child.pid) return;
      killGroup(child.pid, "SIGTERM");
      const pid = child.pid;
      killer = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    for (const stream of [child.stdout, child.stderr]) readLogLines(stream, options.onLine);
    child.once("error", (error: NodeJS.ErrnoException) => {
      options.signal.removeEventListener("abort", onAbort);
      reject(error.code === "ENOENT" ? new CommandNotFound(command) : error);
    });
    child.once("close", (code) => {
      options.signal.removeEventListener("abort", onAbort);
      // The group's stragglers (a RUN step's children) go with it.
      if (aborted && child.pid) killGroup(child.pid, "SIGKILL");
      if (killer) clearTimeout(killer);
      resolve({ code, aborted });
    });
  });
}
