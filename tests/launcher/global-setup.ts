import { buildIfStale } from "../../scripts/build-if-stale";
import { ensurePostgres } from "../../testing/services";

/** The launcher serves the build it finds (as `npm start` would rebuild a stale one). */
export default async function setup() {
  await ensurePostgres();
  buildIfStale();
}
