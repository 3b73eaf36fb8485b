import { env } from "@/env";
import type { Db } from "@/server/db";
import { DAY_MS, dayOf } from "./time";

// The runs table's day partitions (migration 20261201000000_tracing): made ahead of need, and
// dropped whole once they fall out of retention. Never a row-by-row delete.

const PREFIX = "tracing_runs_p";
/** Partitions this process knows exist: creating one is DDL, checked once per day per process. */
const known = new Set<string>();

const nameOf = (day: Date) => `${PREFIX}${day.toISOString().slice(0, 10).replaceAll("-", "")}`;

/** Creates the day partitions covering these instants' days (idempotent, safe concurrently). */
export async function ensureRunPartitions(db: Db, days: Date[]): Promise<void> {
  const missing = [...new Set(days.map((d) => nameOf(dayOf(d.toISOString()))))].filter(
    (name) => !known.has(name),
  );
  if (missing.length === 0) return;
  await db.$transaction(async (tx) => {
    // One creator at a time: two CREATE ... IF NOT EXISTS racing can still collide.
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('tracing_runs_partitions'))`);
    for (const name of missing) {
      const day = new Date(
        Date.UTC(
          Number(name.slice(-8, -4)),
          Number(name.slice(-4, -2)) - 1,
          Number(name.slice(-2)),
        ),
      );
      const next = new Date(day.getTime() + DAY_MS);
      await tx.$executeRawUnsafe(
        `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "tracing_runs" FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}')`,
      );
    }
  });
  for (const name of missing) known.add(name);
}

/** The day partitions that exist now, oldest first (their names end in YYYYMMDD). */
export async function listRunPartitions(db: Db): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'tracing_runs' ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** The oldest instant a run may start at and still be kept. */
export function retentionCutoff(now: Date, retentionDays = env.HANGAR_TRACING_RETENTION_DAYS) {
  return new Date(dayOf(now.toISOString()).getTime() - retentionDays * DAY_MS);
}

/**
 * Drops every day partition wholly older than the retention (its day ends at or before the
 * cutoff day's start). Returns the dropped partitions' names. The worker calls it.
 */
export async function dropExpiredRunPartitions(
  db: Db,
  now = new Date(),
  retentionDays = env.HANGAR_TRACING_RETENTION_DAYS,
): Promise<string[]> {
  const cutoff = nameOf(retentionCutoff(now, retentionDays));
  const dropped: string[] = [];
  for (const name of await listRunPartitions(db)) {
    if (!/^tracing_runs_p\d{8}$/.test(name) || name >= cutoff) continue;
    // Detached first without blocking ingest into the other partitions; a detach an earlier
    // pass left half-done is finished instead.
    await db
      .$executeRawUnsafe(`ALTER TABLE "tracing_runs" DETACH PARTITION "${name}" CONCURRENTLY`)
      .catch(() =>
        db.$executeRawUnsafe(`ALTER TABLE "tracing_runs" DETACH PARTITION "${name}" FINALIZE`),
      );
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
    known.delete(name);
    dropped.push(name);
  }
  return dropped;
}

/** The worker's hourly pass: today's and the next days' partitions exist, expired ones are gone. */
export async function maintainRunPartitions(db: Db, now = new Date()): Promise<string[]> {
  await ensureRunPartitions(
    db,
    [0, 1, 2].map((d) => new Date(now.getTime() + d * DAY_MS)),
  );
  return dropExpiredRunPartitions(db, now);
}
