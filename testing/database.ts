import { randomBytes } from "node:crypto";
import pg from "pg";
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
