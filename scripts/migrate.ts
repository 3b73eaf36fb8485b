// `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded database.
import path from "node:path";
import { resolveDatabase } from "../src/server/db/embedded";
import { migrate } from "../src/server/db/migrate";

const dataDir = path.resolve(process.env.HANGAR_DATA_DIR ?? ".data");
const database = await resolveDatabase(dataDir);
try {
  const { applied } = await migrate(database.url);
  console.log(applied.length ? `Applied ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await database.close();
}
