import { randomBytes } from "node:crypto";
import type { Listener } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";
import { sha256Hex } from "@/server/crypto";
import { AppError } from "@/server/errors";

// A listener's credential: shown once at creation, stored as a SHA-256, recognisable by its
// prefix. It authenticates the listener protocol and nothing else.

export const LISTENER_TOKEN_PREFIX = "hgl_";
export const INVALID_LISTENER_TOKEN = "Invalid listener token";

export function generateListenerToken(): { token: string; prefix: string; hash: string } {
  const token = LISTENER_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, prefix: token.slice(0, 12), hash: sha256Hex(token) };
}

export const isListenerToken = (value: string | null | undefined): value is string =>
  !!value && value.startsWith(LISTENER_TOKEN_PREFIX);

/** The listener token in an `Authorization: Bearer` header, if that is what it carries. */
export function listenerTokenOf(authorization: string | null): string | null {
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return isListenerToken(token) ? token : null;
}

/** The listener a bearer token names, or 401. Each call counts as the listener being seen. */
export async function listenerFromToken(
  db: DbClient,
  authorization: string | null,
): Promise<Listener> {
  const token = listenerTokenOf(authorization);
  if (!token)
    throw new AppError("unauthorized", "Missing listener credentials: send Authorization: Bearer");
  const listener = await db.listener.findUnique({ where: { tokenHash: sha256Hex(token) } });
  if (!listener) throw new AppError("unauthorized", INVALID_LISTENER_TOKEN);
  // Raw, so updated_at keeps meaning "configuration changed".
  const [seen] = await db.$queryRaw<{ last_seen_at: Date }[]>`
    UPDATE listeners SET last_seen_at = now() WHERE id = ${listener.id}::uuid
    RETURNING last_seen_at`;
  // Its deployments marked UNKNOWN while it was offline (services/listeners/offline.ts) are
  // running again as far as anyone knows: READY, as they were, unless its own health report
  // said otherwise (services/runtime/state.ts).
  await db.$executeRaw`
    UPDATE deployments SET status = 'READY', updated_at = now()
    WHERE listener_id = ${listener.id}::uuid AND status = 'UNKNOWN' AND active_revision_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM deployment_runtime_states s
                      WHERE s.deployment_id = deployments.id AND NOT s.healthy)`;
  return { ...listener, lastSeenAt: seen?.last_seen_at ?? listener.lastSeenAt };
}

/** A listener token sent to any other route: valid ones get 403, unknown ones 401. */
export async function refuseListenerToken(db: DbClient, headers: Headers): Promise<void> {
  const apiKey = headers.get("x-api-key");
  const authorization = headers.get("authorization");
  const sent = isListenerToken(apiKey) ? `Bearer ${apiKey}` : authorization;
  if (!sent?.match(/^Bearer\s+hgl_/i)) return;
  await listenerFromToken(db, sent);
  throw new AppError("forbidden", "A listener token can only call the listener protocol.");
}
