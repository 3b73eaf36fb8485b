import { auth } from "@/server/auth/nextauth";
import { actorFromApiKey } from "@/server/auth/api-keys";
import { actorFromIngestKey, isIngestKey } from "@/server/auth/ingest-keys";
import { ONE_TIME_PASSWORD, type Actor } from "@/server/auth/actor";
import { actorFromSession } from "@/server/auth/session-actor";
import { refuseListenerToken } from "@/server/auth/listener-tokens";
import { getDb, type Db } from "@/server/db";
import { forbidden } from "@/server/errors";

/** What every request carries into the services, whichever door it came through. */
export interface RequestContext {
  db: Db;
  requestId: string;
  actor: Actor | null;
  /** Where clients reach Hangar (publicOrigin), for URLs handed out; set by the tRPC door. */
  origin?: string;
}

async function sessionActor(db: Db): Promise<Actor | null> {
  const session = await auth();
  if (!session?.userId) return null;
  return actorFromSession(db, {
    userId: session.userId,
    workspaceId: session.workspaceId,
    sessionId: session.sessionId,
  });
}

function withRequestId(actor: Actor | null, requestId: string): Actor | null {
  return actor ? { ...actor, requestId } : null;
}

/** REST: an API key (X-Api-Key, X-Tenant-Id) first, else the signed-in session. */
export async function createRestContext(
  headers: Headers,
  requestId: string,
): Promise<RequestContext> {
  const db = getDb();
  await refuseListenerToken(db, headers);
  const key = headers.get("x-api-key");
  const actor = key
    ? await actorFromApiKey(db, key, headers.get("x-tenant-id"))
    : await sessionActor(db);
  // The REST routes have no password change: a one-time password opens the dashboard form only.
  if (actor?.mustChangePassword) throw forbidden(ONE_TIME_PASSWORD);
  return { db, requestId, actor: withRequestId(actor, requestId) };
}

/** Said to a tracing ingest key wherever it may not go (contract 15.7). */
export const INGEST_KEY_ONLY_WRITES =
  "A deployment's ingest key can only write runs into its own project";

/**
 * The tracing routes (contract 15.7): a deployment's ingest key (`hgt_...`) is an actor there;
 * where `ingestKeys` is "refused" (reads, projects, feedback) it is a 403, once it proved valid.
 * Any other credential (a key of that shape unknown as an ingest key too): as createRestContext.
 */
export async function createTracingContext(
  headers: Headers,
  requestId: string,
  ingestKeys: "accepted" | "refused",
): Promise<RequestContext> {
  const key = headers.get("x-api-key");
  const db = getDb();
  const actor = isIngestKey(key) ? await actorFromIngestKey(db, key) : null;
  if (!actor) return createRestContext(headers, requestId);
  if (ingestKeys === "refused") throw forbidden(INGEST_KEY_ONLY_WRITES);
  return { db, requestId, actor: withRequestId(actor, requestId) };
}

/** tRPC (the dashboard's door): the signed-in session only. */
export async function createSessionContext(
  requestId: string,
  origin?: string,
): Promise<RequestContext> {
  const db = getDb();
  return { db, requestId, origin, actor: withRequestId(await sessionActor(db), requestId) };
}
