import type { DbClient } from "@/server/db";
import { notifyChannel } from "@/server/notify-channel";

// A revision stopped by a user (interrupted) wakes the worker building it, in whatever process
// that runs, so the build is stopped at once rather than at its next look at the status.

const stops = notifyChannel("hangar_revision_stop", "revision stop channel");

/** Subscribe before reading the status, so a stop between the read and the wait is kept. */
export const subscribeToStop = (revisionId: string) => stops.subscribe(revisionId);

/** Inside the transaction that stops it: delivered when it commits. */
export const notifyRevisionStop = (db: DbClient, revisionId: string) =>
  stops.notify(db, revisionId);
