import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/env";

export type Db = PrismaClient;
/** A client or an open transaction: services accept either. */
export type DbClient = Omit<
  PrismaClient,
  "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends"
>;

export function createDb(url: string, poolSize = env.HANGAR_DB_POOL_SIZE): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
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
