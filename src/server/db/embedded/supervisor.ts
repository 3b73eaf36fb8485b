import { existsSync } from "node:fs";
import path from "node:path";
import { isPostgres, pgdataOf, startServer, type ServerInfo } from "./server";

// Keeps the embedded PostgreSQL running under `npm start`: when its postmaster exits unexpectedly
// (the out-of-memory killer's SIGKILL, a crash), it is started again on the same port, so every
// client's address stays right; PostgreSQL replays its write-ahead log, so nothing committed is
// lost, and the web server's and the worker's pools and listening connections reconnect by
// themselves. A server that keeps failing (it will not start, or dies soon after each start) is
// restarted after a growing pause, capped, and the console says so each time.

/** How often the postmaster's pid is looked at. */
const CHECK_MS = 250;
/** A server up this long ends a crash loop: its next exit is restarted at once. */
export const STABLE_MS = 60_000;
const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;

/** The pause before restart attempt number `failures + 1` of a loop: 0, 1 s, 2 s, 4 s … 30 s. */
export function restartDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - 1));
}

export interface SupervisorOptions {
  dataDir: string;
  password: string;
  notice: (message: string) => void;
}

export interface Supervisor {
  /** The server now running (its pid changes with each restart). */
  current(): ServerInfo;
  /** Stops watching (before a deliberate stop); waits for a restart under way to settle. */
  stop(): Promise<void>;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The useful end of a failed start's error: its first line and the last lines of its log. */
function reason(error: unknown): string {
  const lines = String((error as Error)?.message ?? error)
    .split("\n")
    .filter((line) => line.trim());
  return lines.length <= 4 ? lines.join("\n  ") : [lines[0], ...lines.slice(-3)].join("\n  ");
}

export function superviseServer(server: ServerInfo, options: SupervisorOptions): Supervisor {
  const { dataDir, password, notice } = options;
  let running = server;
  /** When this supervisor last started it (the first server's start does not count). */
  let startedAt = 0;
  let stopped = false;
  let failures = 0;
  let restarting: Promise<void> | null = null;
  let endPause = () => undefined as void;

  /** A pause that a stop cuts short. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function restart(downSince: number) {
    while (!stopped) {
      const delay = restartDelayMs(failures);
      if (delay > 0) {
        notice(
          `The embedded PostgreSQL is in a crash loop (${failures} failure${failures > 1 ? "s" : ""} ` +
            `in a row); backing off: next restart in ${seconds(delay)}.`,
        );
        await pause(delay);
      }
      if (stopped) return;
      try {
        // Never an empty database under a running Hangar: a vanished data folder stays a fault.
        const pgdata = pgdataOf(dataDir);
        if (!existsSync(path.join(pgdata, "PG_VERSION")))
          throw new Error(
            `its data folder ${pgdata} is gone; restore it, or stop and start Hangar`,
          );
        running = await startServer(dataDir, password, notice, running.port);
        startedAt = Date.now();
        notice(
          `The embedded PostgreSQL is running again (pid ${running.pid}, port ${running.port}), ` +
            `${seconds(Date.now() - downSince)} after it stopped; it recovered from its write-ahead log.`,
        );
        return;
      } catch (error) {
        failures++;
        notice(`The embedded PostgreSQL could not be restarted: ${reason(error)}`);
      }
    }
  }

  const check = setInterval(() => {
    if (stopped || restarting || isPostgres(running.pid)) return;
    const downSince = Date.now();
    // Died soon after a restart: part of a crash loop, so it waits its turn.
    failures = downSince - startedAt < STABLE_MS ? failures + 1 : 0;
    notice(
      `The embedded PostgreSQL (pid ${running.pid}) exited unexpectedly; restarting it on port ${running.port}.`,
    );
    restarting = restart(downSince).finally(() => (restarting = null));
  }, CHECK_MS);

  return {
    current: () => running,
    async stop() {
      stopped = true;
      clearInterval(check);
      endPause();
      await restarting;
    },
  };
}
