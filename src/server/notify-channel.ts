import pg from "pg";
import { env } from "@/env";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";

// A PostgreSQL LISTEN/NOTIFY channel whose notifications carry a key (a flow id, a listener id):
// a long poll in one process wakes when another process commits work for its key. One listening
// connection per channel and process, opened on first use; when it is lost every waiter wakes,
// so a notification lost with the connection is never missed (waiters read again).

export interface Subscription {
  /** Resolves on a notification for the key (also one that came since the last call), the deadline or abort. */
  next(ms: number, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export interface NotifyChannel {
  /** Subscribe before reading, so a notification between the read and the wait is kept. */
  subscribe(key: string): Promise<Subscription>;
  /** Inside the transaction that does the work: delivered when it commits. */
  notify(db: DbClient, key: string): Promise<void>;
}

export function notifyChannel(channel: string, label: string): NotifyChannel {
  const waiters = new Map<string, Set<() => void>>();
  let connection: Promise<pg.Client> | null = null;

  const wakeAll = () => {
    for (const set of waiters.values()) for (const wake of set) wake();
  };

  const listen = (): Promise<pg.Client> => {
    connection ??= (async () => {
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      const reset = (error?: Error) => {
        if (error) log.warn(`${label} lost`, describeError(error));
        connection = null;
        void client.end().catch(() => undefined);
        wakeAll();
      };
      client.on("error", reset);
      client.on("notification", (message) => {
        for (const wake of waiters.get(message.payload ?? "") ?? []) wake();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        reset(error as Error);
        throw error;
      }
      return client;
    })();
    return connection;
  };

  return {
    async subscribe(key) {
      await listen();
      let signalled = false;
      let release: (() => void) | null = null;
      const onEvent = () => {
        signalled = true;
        release?.();
      };
      const set = waiters.get(key) ?? new Set();
      set.add(onEvent);
      waiters.set(key, set);
      return {
        next(ms, signal) {
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
          if (set.size === 0) waiters.delete(key);
        },
      };
    },
    async notify(db, key) {
      await db.$executeRaw`SELECT pg_notify(${channel}, ${key})`;
    },
  };
}
