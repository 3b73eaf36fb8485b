import { existsSync } from "node:fs";
import path from "node:path";

// Before the embedded default was a real PostgreSQL server, it was PGlite, which kept its data in
// `<data folder>/pglite`. This version cannot read that folder: say so, change nothing.

export class LegacyDataError extends Error {}

export function refuseLegacyData(dataDir: string): void {
  const folder = path.join(dataDir, "pglite");
  if (!existsSync(path.join(folder, "PG_VERSION"))) return;
  throw new LegacyDataError(
    [
      `${folder} holds a database written by an earlier Hangar, whose embedded default was PGlite.`,
      "This version's embedded default is a real PostgreSQL server and cannot open that folder;",
      "nothing in it has been read, changed or deleted.",
      "To move on, either:",
      `  - start afresh: move the folder aside (mv "${folder}" "${folder}.old") and run npm start again, or`,
      "  - keep the data: run the earlier Hangar on this folder once more and export what you need",
      `    (its REST API, or pg_dump against the address in ${path.join(dataDir, "embedded-db.json")}),`,
      "    then load it into this version.",
    ].join("\n"),
  );
}
