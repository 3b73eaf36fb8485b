import type { DbClient } from "@/server/db";

// Dashboard sessions: a row per sign-in, its id in the cookie, checked on every use of it.

const SEEN_RESOLUTION_MS = 60_000;

export async function startSession(
  db: DbClient,
  userId: string,
  userAgent: string | null,
): Promise<string> {
  const row = await db.session.create({
    data: { userId, userAgent: userAgent?.slice(0, 300) ?? null },
  });
  return row.id;
}

/** Whether the session is live; notes when it was last seen (at most once a minute). */
export async function sessionIsLive(
  db: DbClient,
  sessionId: string,
  userId: string,
): Promise<boolean> {
  const row = await db.session.findUnique({ where: { id: sessionId } });
  if (!row || row.userId !== userId || row.revokedAt) return false;
  if (Date.now() - row.lastSeenAt.getTime() > SEEN_RESOLUTION_MS) {
    db.session
      .update({ where: { id: row.id }, data: { lastSeenAt: new Date() } })
      .catch(() => undefined);
  }
  return true;
}

export async function endSession(db: DbClient, sessionId: string): Promise<void> {
  await db.session.updateMany({
    where: { id: sessionId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
