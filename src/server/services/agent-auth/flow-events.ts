import pg from "pg";
import { env } from "@/env";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";

// Flows finishing wake their waiters through PostgreSQL LISTEN/NOTIFY: the callback may land on
// another instance than the long poll. One listening connection per process.

const CHANNEL = "hangar_auth_flows";
const waiters = new Map<string, Set<() => void>>();
let listener: Promise<pg.Client> | null = null;

function wakeAll(): void {
  for (const set of waiters.values()) for (const wake of set) wake();
}

function listen(): Promise<pg.Client> {
  listener ??= (async () => {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    const reset = (error?: Error) => {
      if (error) log.warn("auth flow listener lost", describeError(error));
      listener = null;
      void client.end().catch(() => undefined);
      // Waiters re-read their flow, so a notification lost with the connection is not missed.
      wakeAll();
    };
    client.on("error", reset);
    client.on("notification", (message) => {
      for (const wake of waiters.get(message.payload ?? "") ?? []) wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      reset(error as Error);
      throw error;
    }
    return client;
  })();
  return listener;
}

/** Subscribes before the caller reads the flow; `next()` resolves on a notification or the deadline. */
export async function subscribe(authId: string) {
  await listen();
  // A notification that arrives between two reads is kept, so the next wait returns at once.
  let signalled = false;
  let release: (() => void) | null = null;
  const onEvent = () => {
    signalled = true;
    release?.();
  };
  const set = waiters.get(authId) ?? new Set();
  set.add(onEvent);
  waiters.set(authId, set);
  return {
    next(ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          release = null;
          signalled = false;
          resolve();
        };
        const timer = setTimeout(finish, ms);
        if (signalled || signal?.aborted) return finish();
        release = finish;
        signal?.addEventListener("abort", finish, { once: true });
      });
    },
    close() {
      set.delete(onEvent);
      if (set.size === 0) waiters.delete(authId);
    },
  };
}

/** Inside the transaction that finishes the flow: delivered when it commits. */
export async function notifyFlowFinished(db: DbClient, authId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${authId})`;
}
