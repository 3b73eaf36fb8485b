import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The embedded default: PGlite keeps the data in a folder and is served over the Postgres wire
// protocol on loopback, so the web server, the worker and the admin command all speak plain pg.

export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

interface Marker {
  port: number;
  pid: number;
}

const markerPath = (dataDir: string) => path.join(dataDir, "embedded-db.json");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

const urlFor = (port: number) =>
  `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;

/** The URL of an embedded database another Hangar process is already serving, if any. */
export async function runningEmbeddedDatabase(dataDir: string): Promise<string | null> {
  if (!existsSync(markerPath(dataDir))) return null;
  const marker = JSON.parse(await readFile(markerPath(dataDir), "utf8")) as Marker;
  return alive(marker.pid) ? urlFor(marker.port) : null;
}

/** Opens the data folder's PGlite and serves it on a free loopback port. */
export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { pg_trgm } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 64 });
  await server.start();
  await writeFile(markerPath(dataDir), JSON.stringify({ port, pid: process.pid } satisfies Marker));
  return {
    url: urlFor(port),
    async close() {
      await server.stop();
      await db.close();
      await rm(markerPath(dataDir), { force: true });
    },
  };
}

/** DATABASE_URL if set; else the running embedded database; else start one in this process. */
export async function resolveDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, close: async () => undefined };
  const running = await runningEmbeddedDatabase(dataDir);
  if (running) return { url: running, close: async () => undefined };
  return startEmbeddedDatabase(dataDir);
}
