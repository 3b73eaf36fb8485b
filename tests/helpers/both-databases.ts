import { createDb, type Db } from "@/server/db";
import { createEmbeddedDatabase } from "../../testing/database";
import { testDb } from "./fixtures";

/** A database a test opens and closes itself. */
export type OpenDatabase = () => Promise<{ db: Db; close: () => Promise<void> }>;

/**
 * The run's PostgreSQL and a fresh embedded default, for `describe.each`: what SQL itself must
 * keep (triggers, counts) is held on both, as the default a newcomer runs is a PostgreSQL too.
 */
export const bothDatabases: [string, OpenDatabase][] = [
  ["the run's PostgreSQL", async () => ({ db: testDb(), close: async () => undefined })],
  [
    "the embedded default",
    async () => {
      const database = await createEmbeddedDatabase();
      const db = createDb(database.url, 8);
      const close = async () => {
        await db.$disconnect();
        await database.drop();
      };
      return { db, close };
    },
  ],
];
