import pg from "pg";
import { env } from "@/env";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { describeError, log } from "@/server/log";
import { findDeployment } from "./find";

// Live deployment changes for the dashboard. A database trigger NOTIFYs every change to a
// deployment or a revision's status (whoever made it: the API, the worker, a tool); each server
// process holds ONE listening connection, opened with its first subscriber and closed after its
// last, and fans the notifications out to its subscribers by workspace. Idle costs nothing else.

const CHANNEL = "hangar_deployment_changed";

export interface DeploymentChange {
  deployment_id: string;
}

type Subscriber = {
  deploymentId: string | null;
  onChange: (change: DeploymentChange) => void;
  /** The connection was lost and is back: changes may have been missed. */
  onResync: () => void;
};

const subscribers = new Map<string, Set<Subscriber>>();
let listener: Promise<pg.Client> | null = null;

const count = () => [...subscribers.values()].reduce((n, set) => n + set.size, 0);

function dispatch(payload: string | undefined): void {
  let message: { w?: unknown; d?: unknown };
  try {
    message = JSON.parse(payload ?? "");
  } catch {
    return;
  }
  if (typeof message.w !== "string" || typeof message.d !== "string") return;
  for (const sub of subscribers.get(message.w) ?? [])
    if (!sub.deploymentId || sub.deploymentId === message.d)
      sub.onChange({ deployment_id: message.d });
}

function listen(): Promise<pg.Client> {
  listener ??= (async () => {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    let lost = false;
    const reset = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) log.warn("deployment change listener lost", describeError(error));
      listener = null;
      client.removeAllListeners("notification");
      void client.end().catch(() => undefined);
      // Reconnect while anyone listens; they re-read, so nothing missed stays missed.
      if (count() > 0)
        setTimeout(() => {
          if (count() === 0) return;
          listen().then(
            () => subscribers.forEach((set) => set.forEach((s) => s.onResync())),
            () => undefined,
          );
        }, 1_000).unref();
    };
    client.on("error", reset);
    client.on("end", () => reset());
    client.on("notification", (message) => dispatch(message.payload));
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

function stopListening(): void {
  const current = listener;
  listener = null;
  void current?.then(
    (client) => {
      client.removeAllListeners();
      client.on("error", () => undefined);
      return client.end();
    },
    () => undefined,
  );
}

/**
 * Follows the changes of the actor's workspace, or of one of its deployments (404 when it is
 * not the workspace's). Resolves once listening, so no change after it is missed.
 */
export async function subscribeToDeployments(
  db: DbClient,
  actor: Actor,
  deploymentId: string | null,
  handlers: Omit<Subscriber, "deploymentId">,
): Promise<() => void> {
  if (deploymentId) await findDeployment(db, actor, deploymentId);
  const sub: Subscriber = { deploymentId, ...handlers };
  const set = subscribers.get(actor.workspaceId) ?? new Set();
  set.add(sub);
  subscribers.set(actor.workspaceId, set);
  const unsubscribe = () => {
    set.delete(sub);
    if (set.size === 0 && subscribers.get(actor.workspaceId) === set)
      subscribers.delete(actor.workspaceId);
    if (count() === 0) stopListening();
  };
  try {
    await listen();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  return unsubscribe;
}
