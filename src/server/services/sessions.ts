import type { BrowserSession } from "@/schemas/sessions";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { endSession } from "@/server/auth/session-store";
import { recordAudit } from "./audit/record";

// Dashboard sessions as the user sees them (Settings > Sessions): listed and revoked here;
// created, checked and ended at sign-in and sign-out by server/auth/session-store.ts.

export async function listMySessions(db: DbClient, actor: Actor): Promise<BrowserSession[]> {
  if (!actor.userId) throw notFound("No signed-in user.");
  const rows = await db.session.findMany({
    where: { userId: actor.userId, revokedAt: null },
    orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  return rows.map((r) => ({
    id: r.id,
    user_agent: r.userAgent,
    created_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    current: r.id === actor.sessionId,
  }));
}

/** Another session of the same user only: someone else's is a 404. */
export async function revokeMySession(db: DbClient, actor: Actor, id: string): Promise<void> {
  const row = actor.userId
    ? await db.session.findFirst({ where: { id, userId: actor.userId, revokedAt: null } })
    : null;
  if (!row) throw notFound(`Session ${id} not found.`);
  await endSession(db, id);
  await recordAudit(db, actor, {
    action: "session.revoke",
    targetType: "session",
    targetId: id,
    data: { current: id === actor.sessionId },
  });
}
