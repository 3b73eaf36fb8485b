import { PrismaPg } from "@prisma/adapter-pg";
import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaClient, type Prisma } from "@/generated/prisma/client";
import { env } from "@/env";

export type Db = PrismaClient;
/** A client or an open transaction: services accept either. */
export type DbClient = Omit<
  PrismaClient,
  "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends"
>;

/**
 * Each client's connection pool, shared with `readRows` below. Kept on `globalThis`: the
 * production build can load this module once per route bundle, and the client made by one copy
 * (getDb's, also global) must find its pool from every other copy.
 */
const globalForPools = globalThis as unknown as { hangarDbPools?: WeakMap<object, pg.Pool> };
const pools = (globalForPools.hangarDbPools ??= new WeakMap<object, pg.Pool>());

export function createDb(url: string, poolSize = env.HANGAR_DB_POOL_SIZE): Db {
  // Named statements (readRows) are planned for their values every time, as unnamed ones are:
  // a plan generic over the workspace would suit the average tenant, not the largest.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: "-c plan_cache_mode=force_custom_plan",
  });
  // An idle connection lost with the server (restarted, failed over) leaves the pool; the next
  // query opens a new one. Unhandled, the pool's error event would end the process.
  pool.on("error", () => undefined);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/**
 * A full client rather than an open transaction's (which has no `$connect`; it does keep a
 * `$transaction`, which would start another transaction on another connection).
 */
export const isFullClient = (db: DbClient): db is Db =>
  typeof (db as Partial<Db>).$connect === "function";

/**
 * A statement on the hottest paths (the deployment list, run ingest and query), sent on the
 * client's own pg pool past Prisma's raw-query layer, which costs about 0.4 ms of CPU per query
 * over pg's own 0.2 (profiled under bench:list). Values are pg's: text stays text, so it suits
 * queries whose columns are text or JSON built by PostgreSQL. Each distinct text is a named statement, parsed once per
 * connection (the list's SQL is a few kilobytes: parsing it was a third of its database CPU).
 * `named: false` for a query whose texts vary without bound (each would stay prepared on every
 * pooled connection). Inside a transaction (no pool of its own) it is `$queryRawUnsafe` on it.
 */
export async function readRows<T>(
  db: DbClient,
  sql: Pick<Prisma.Sql, "text" | "values">,
  { named = true }: { named?: boolean } = {},
): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) {
    // A full client always has its pool: missing, it would silently take the slow path.
    if (isFullClient(db)) throw new Error("readRows: a client made without createDb");
    return db.$queryRawUnsafe<T[]>(sql.text, ...sql.values);
  }
  const name = named
    ? `hangar_${createHash("sha1").update(sql.text).digest("base64url")}`
    : undefined;
  return (await pool.query<T & pg.QueryResultRow>({ name, text: sql.text, values: sql.values }))
    .rows;
}

const globalForDb = globalThis as unknown as { hangarDb?: Db };

/** The process-wide client; DATABASE_URL is set by the launcher on the embedded default. */
export function getDb(): Db {
  if (!globalForDb.hangarDb) {
    if (!env.DATABASE_URL) {
      throw new Error(
        "DATABASE_URL is not set: start Hangar with `npm start` or set it (see README).",
      );
    }
    globalForDb.hangarDb = createDb(env.DATABASE_URL);
  }
  return globalForDb.hangarDb;
}
