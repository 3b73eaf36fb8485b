import { Prisma } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";

// Worker liveness (src/server/jobs/lifeline.ts): a registered worker is alive while the
// session-level advisory lock (LOCK_NAMESPACE, its lock_key) is held, by its own connection.

/** The first key of the workers' advisory locks ("HANG"); the second is the worker's lock_key. */
export const LOCK_NAMESPACE = 0x48414e47;

/** True when the lock of the worker row aliased `w` is held (by its worker's session). */
export const lockHeld = Prisma.sql`EXISTS (
  SELECT 1 FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = ${LOCK_NAMESPACE}::bigint::oid AND l.objid = w.lock_key::bigint::oid)`;

/** How many workers are alive now (registered, their session and lock held). */
export async function countLiveWorkers(db: DbClient): Promise<number> {
  const [row] = await db.$queryRaw<{ live: number }[]>`
    SELECT count(*)::int AS live FROM workers w WHERE ${lockHeld}`;
  return row?.live ?? 0;
}
