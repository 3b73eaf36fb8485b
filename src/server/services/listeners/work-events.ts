import pg from "pg";
import { env } from "@/env";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";

// Work for a listener wakes its long polls through PostgreSQL LISTEN/NOTIFY: the engine that
// hands a revision over may run in another process than the poll. One connection per process.

const CHANNEL = "hangar_listener_work";
const waiters = new Map<string, Set<() => void>>();
let connection: Promise<pg.Client> | null = null;

function wakeAll(): void {
  for (const set of waiters.values()) for (const wake of set) wake();
}

function listen(): Promise<pg.Client> {
  connection ??= (async () => {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    const reset = (error?: Error) => {
      if (error) log.warn("listener work channel lost", describeError(error));
      connection = null;
      void client.end().catch(() => undefined);
      // Polls look for work again, so a notification lost with the connection is not missed.
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
  return connection;
}

/**
 * Subscribes a poll of one listener before it looks for work, so work handed over between its
 * look and its wait is not missed. `wait` resolves on a notification, the deadline or abort.
 */
export async function subscribeToWork(listenerId: string) {
  await listen();
  let signalled = false;
  let release: (() => void) | null = null;
  const onEvent = () => {
    signalled = true;
    release?.();
  };
  const set = waiters.get(listenerId) ?? new Set();
  set.add(onEvent);
  waiters.set(listenerId, set);
  return {
    wait(ms: number, signal?: AbortSignal): Promise<void> {
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
      if (set.size === 0) waiters.delete(listenerId);
    },
  };
}

/** Inside the transaction that creates the work: delivered when it commits. */
export async function notifyListenerWork(db: DbClient, listenerId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${listenerId})`;
}
