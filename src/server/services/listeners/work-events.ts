import type { DbClient } from "@/server/db";
import { notifyChannel } from "@/server/notify-channel";

// Work for a listener wakes its long polls through PostgreSQL LISTEN/NOTIFY: the engine that
// hands a revision over may run in another process than the poll.

const work = notifyChannel("hangar_listener_work", "listener work channel");

/**
 * Subscribes a poll of one listener before it looks for work, so work handed over between its
 * look and its wait is not missed.
 */
export const subscribeToWork = (listenerId: string) => work.subscribe(listenerId);

/** Inside the transaction that creates the work: delivered when it commits. */
export const notifyListenerWork = (db: DbClient, listenerId: string) => work.notify(db, listenerId);
