import { createEmbeddedDatabase, createTestDatabase } from "../testing/database";
import { ensurePostgres } from "../testing/services";

// The two databases every benchmark runs on: the machine's PostgreSQL (a throwaway database)
// and the embedded default (a fresh data folder), so both are measured in one run.

export interface BenchDatabase {
  label: string;
  url: string;
  close(): Promise<void>;
}

export async function externalDatabase(name: string): Promise<BenchDatabase> {
  await ensurePostgres();
  const database = await createTestDatabase(name);
  return { label: "external PostgreSQL", url: database.url, close: database.drop };
}

export async function embeddedDatabase(): Promise<BenchDatabase> {
  const database = await createEmbeddedDatabase();
  return { label: "embedded default", url: database.url, close: database.drop };
}

/** Which databases to run on: BENCH_DATABASES=external,embedded (default both). */
export function selectedDatabases(name: string): (() => Promise<BenchDatabase>)[] {
  const wanted = (process.env.BENCH_DATABASES ?? "external,embedded").split(",");
  return [
    ...(wanted.includes("external") ? [() => externalDatabase(name)] : []),
    ...(wanted.includes("embedded") ? [embeddedDatabase] : []),
  ];
}
