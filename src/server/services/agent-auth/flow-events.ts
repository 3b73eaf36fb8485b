import type { DbClient } from "@/server/db";
import { notifyChannel } from "@/server/notify-channel";

// Flows finishing wake their waiters through PostgreSQL LISTEN/NOTIFY: the callback may land on
// another instance than the long poll.

const flows = notifyChannel("hangar_auth_flows", "auth flow listener");

/** Subscribes before the caller reads the flow; `next()` resolves on a notification or the deadline. */
export const subscribe = (authId: string) => flows.subscribe(authId);

/** Inside the transaction that finishes the flow: delivered when it commits. */
export const notifyFlowFinished = (db: DbClient, authId: string) => flows.notify(db, authId);
