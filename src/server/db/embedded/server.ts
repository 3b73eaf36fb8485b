import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { chown, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "@/lib/free-port";
import { postgresBinaries } from "./binaries";
import { grantTraverse } from "@/lib/system-users";
import { postgresRunAs, type RunAs } from "./system-user";

// A real PostgreSQL server run from node_modules, its data in `<data folder>/postgres`, on a free
// loopback port with a generated password. It runs in a session of its own, so a Ctrl-C reaches
// the web server and the worker first; whoever started it stops it last. PostgreSQL's own lock
// file (`postmaster.pid`) says whether it runs and on which port, so other processes (the worker,
// the admin command) find it there.

export const DATABASE_NAME = "hangar";
const USER = "postgres";

export interface ServerInfo {
  pid: number;
  port: number;
}

export const pgdataOf = (dataDir: string) => path.join(dataDir, "postgres");
const lockFileOf = (dataDir: string) => path.join(pgdataOf(dataDir), "postmaster.pid");
const logFileOf = (dataDir: string) => path.join(dataDir, "postgres.log");

export const connectionUrl = (port: number, password: string, database = DATABASE_NAME) =>
  `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const hasProc = existsSync("/proc/self/stat");

/** A process's name and state ("<pid> (<name>) <state> ..."); null without /proc or process. */
function procStat(pid: number): { name: string; state: string } | null {
  try {
    const match = /^\d+ \((.*)\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"));
    return match ? { name: match[1]!, state: match[2]! } : null;
  } catch {
    return null;
  }
}

/** A live PostgreSQL process: after a crash, the lock file's pid may now be another program's. */
export function isPostgres(pid: number): boolean {
  if (!alive(pid)) return false;
  if (!hasProc) return true; // no /proc on this system: the pid being alive is all we can know
  const stat = procStat(pid);
  // A zombie (Z) has exited, whatever its name.
  return stat?.name === "postgres" && stat.state !== "Z";
}

/**
 * A lock file's pid that PostgreSQL would take for a running server though none runs: another
 * program's now, or an exited postmaster not yet reaped (a zombie: its parent was killed and
 * nothing reaps orphans, as in a container whose first process is not an init).
 */
function stalePid(pid: number): boolean {
  if (!hasProc || !alive(pid)) return false;
  const stat = procStat(pid);
  return !!stat && (stat.name !== "postgres" || stat.state === "Z");
}

/** The server running on this data folder, read from PostgreSQL's lock file; null if none. */
export function runningServer(dataDir: string): ServerInfo | null {
  const lock = lockFileOf(dataDir);
  if (!existsSync(lock)) return null;
  const lines = readFileSync(lock, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && port > 0 && isPostgres(pid) ? { pid, port } : null;
}

/** Runs a program to its end; rejects with its output when it fails. */
function runToEnd(file: string, args: string[], runAs?: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], ...runAs });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed:\n${output}`)),
    );
  });
}

async function initialise(initdb: string, pgdata: string, password: string, runAs?: RunAs) {
  if (existsSync(pgdata) && (await readdir(pgdata)).length > 0) {
    throw new Error(
      `${pgdata} exists but holds no PostgreSQL database (an interrupted first start?). ` +
        "Move it aside and start again.",
    );
  }
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  const pwfile = path.join(os.tmpdir(), `hangar-pg-${randomBytes(8).toString("hex")}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (runAs) {
      await chown(pgdata, runAs.uid, runAs.gid);
      await chown(pwfile, runAs.uid, runAs.gid);
    }
    await runToEnd(
      initdb,
      [
        `--pgdata=${pgdata}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        // The builtin provider's C.UTF-8 behaves the same on every platform (no OS locales needed).
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--no-instructions",
      ],
      runAs,
    );
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function logTail(dataDir: string): Promise<string> {
  const text = await readFile(logFileOf(dataDir), "utf8").catch(() => "");
  return text.split("\n").slice(-15).join("\n");
}

/** Waits until the server accepts a session, or fails with its log when it exits first. */
async function waitUntilReady(
  dataDir: string,
  url: string,
  exited: () => boolean,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      const message = (error as Error).message;
      // Authentication is settled: retrying cannot help (the password file does not match).
      if (/password authentication failed/.test(message)) throw error;
      if (exited() || Date.now() > deadline) {
        throw new Error(
          `The embedded PostgreSQL did not start (${message}). Its log:\n${await logTail(dataDir)}`,
          { cause: error },
        );
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Initialises the data folder on first use, starts the server and waits until it is ready; on
 * `port` when given (a restart keeps the address its clients know), else on a free one.
 */
export async function startServer(
  dataDir: string,
  password: string,
  notice: (message: string) => void,
  port?: number,
): Promise<ServerInfo> {
  const pgdata = pgdataOf(dataDir);
  const [binaries, runAs] = await Promise.all([postgresBinaries(), postgresRunAs(notice)]);
  if (runAs) await grantTraverse([pgdata, binaries.postgres], runAs, "postgres", notice);
  if (!existsSync(path.join(pgdata, "PG_VERSION"))) {
    notice(`Creating the embedded PostgreSQL database in ${pgdata}`);
    await initialise(binaries.initdb, pgdata, password, runAs);
  }
  // A lock file whose pid is now another program's (or a zombie's) would make PostgreSQL refuse
  // to start. One whose pid is gone PostgreSQL clears itself, after checking that no process of
  // the dead server still uses its shared memory (else it refuses, and a later attempt succeeds).
  const lock = lockFileOf(dataDir);
  const lockPid = existsSync(lock) ? Number(readFileSync(lock, "utf8").split("\n")[0]) : 0;
  if (lockPid > 0 && stalePid(lockPid)) await rm(lock, { force: true });

  port ??= await freePort();
  const log = openSync(logFileOf(dataDir), "a");
  const child = spawn(
    binaries.postgres,
    // Loopback TCP only: no Unix socket in a shared folder such as /tmp.
    [
      "-D",
      pgdata,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      // After a crash, PostgreSQL first flushes its data folder to disk: one syncfs of the file
      // system instead of an fsync per file (about 3 s here) where Linux offers it.
      ...(process.platform === "linux" ? ["-c", "recovery_init_sync_method=syncfs"] : []),
    ],
    { detached: true, stdio: ["ignore", log, log], ...runAs },
  );
  closeSync(log);
  let exited = false;
  child.once("exit", () => (exited = true));
  child.once("error", () => (exited = true));
  child.unref();
  await waitUntilReady(dataDir, connectionUrl(port, password, "postgres"), () => exited);
  return { pid: child.pid!, port };
}

/** Creates Hangar's database on the server when it is not there yet. */
export async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(port, password, "postgres") });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      DATABASE_NAME,
    ]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${DATABASE_NAME}"`);
  } catch (error) {
    // Two processes starting at once: the other one created it first.
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}

/** Fast shutdown (sessions end, a checkpoint, a clean stop); immediate if that takes too long. */
export async function stopServer(server: ServerInfo, timeoutMs = 60_000): Promise<void> {
  if (!isPostgres(server.pid)) return;
  process.kill(server.pid, "SIGINT");
  const deadline = Date.now() + timeoutMs;
  while (isPostgres(server.pid)) {
    if (Date.now() > deadline) {
      process.kill(server.pid, "SIGQUIT");
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
