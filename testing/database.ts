import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openEmbeddedDatabase } from "../src/server/db/embedded";
import { migrate } from "../src/server/db/migrate";
import { PG_ADMIN_URL } from "./services";

/** A throwaway database for one test run, migrated with the project's own command. */
export async function createTestDatabase(
  label = "hangar_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${label}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The embedded default's PostgreSQL in a fresh data folder, migrated; removed on `drop`. */
export async function createEmbeddedDatabase(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-embedded-"));
  const database = await openEmbeddedDatabase(dataDir, { notice: () => undefined });
  await migrate(database.url);
  return {
    url: database.url,
    drop: async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
