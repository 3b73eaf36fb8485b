import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { localSecret } from "../local-secrets";
import { refuseLegacyData } from "./legacy";
import {
  connectionUrl,
  ensureDatabase,
  isPostgres,
  runningServer,
  startServer,
  stopServer,
  type ServerInfo,
} from "./server";
import { superviseServer, type Supervisor } from "./supervisor";

// The database a Hangar process uses: DATABASE_URL when set; else the embedded PostgreSQL of the
// data folder, the one already running or one this process starts (and then stops on close).

export { LegacyDataError } from "./legacy";

export interface Database {
  url: string;
  embedded: boolean;
  /** Stops the embedded server when this process started (or adopted) it; else does nothing. */
  close(): Promise<void>;
  /**
   * Restarts the embedded server whenever it exits unexpectedly, until close (`npm start` does
   * this; supervisor.ts). Present only on an embedded server this process owns.
   */
  supervise?(): void;
}

export interface OpenOptions {
  /**
   * Take over a running server whose starter is gone (killed without stopping it), so that this
   * process stops it on close. `npm start` adopts; the worker and the admin command only use.
   */
  adopt?: boolean;
  notice?: (message: string) => void;
}

const ownerFileOf = (dataDir: string) => path.join(dataDir, "postgres.owner");

function starterAlive(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(ownerFileOf(dataDir), "utf8"));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function openEmbeddedDatabase(
  dataDir: string,
  { adopt = false, notice = (m: string) => console.error(m) }: OpenOptions = {},
): Promise<Database> {
  refuseLegacyData(dataDir);
  const password = await localSecret(dataDir, "postgres.password");
  let server: ServerInfo | null = runningServer(dataDir);
  let owned = false;
  if (server && adopt && !starterAlive(dataDir)) {
    notice(`Using the embedded PostgreSQL left running by an earlier start (pid ${server.pid}).`);
    owned = true;
  }
  if (!server) {
    try {
      server = await startServer(dataDir, password, notice);
      owned = true;
    } catch (error) {
      // Another process started it at the same moment: use that one.
      server = runningServer(dataDir);
      if (!server) throw error;
    }
  }
  if (owned) await writeFile(ownerFileOf(dataDir), String(process.pid));
  await ensureDatabase(server.port, password);
  const started = server;
  let supervisor: Supervisor | null = null;
  const database: Database = {
    url: connectionUrl(started.port, password),
    embedded: true,
    close: async () => {
      await supervisor?.stop();
      const running = supervisor?.current() ?? started;
      if (owned && isPostgres(running.pid)) await stopServer(running);
    },
  };
  if (owned)
    database.supervise = () => {
      supervisor ??= superviseServer(started, { dataDir, password, notice });
    };
  return database;
}

export async function resolveDatabase(dataDir: string, options?: OpenOptions): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, embedded: false, close: async () => undefined };
  return openEmbeddedDatabase(dataDir, options);
}
