import { Prisma } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";
import { isoSql } from "./time";

// The RunStore's trace queries (run-store.ts holds the interface): a trace's summary and its
// runs depth first, a page at a time, for the trace tree (trace-tree.ts).

/** A trace as a whole: its runs, first start, last end and root (the run without a parent). */
export interface TraceSummary {
  run_count: number;
  start_time: string | null;
  end_time: string | null;
  root_run_id: string | null;
}

export async function traceSummary(
  db: DbClient,
  workspaceId: string,
  traceId: string,
): Promise<TraceSummary> {
  const [row] = await db.$queryRaw<TraceSummary[]>(
    Prisma.sql`SELECT count(*)::int AS run_count,
        ${Prisma.raw(isoSql("min(COALESCE(start_time, sort_time))"))} AS start_time,
        ${Prisma.raw(isoSql("max(end_time)"))} AS end_time,
        (array_agg(id::text ORDER BY sort_time, id) FILTER (WHERE parent_run_id IS NULL))[1] AS root_run_id
      FROM "tracing_runs" WHERE workspace_id = ${workspaceId}::uuid AND trace_id = ${traceId}::uuid`,
  );
  return row!;
}

/** One run of a trace tree: what a waterfall draws, without inputs and outputs. */
export interface TreeRun {
  id: string;
  sort_time: string;
  project_id: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  name: string | null;
  run_type: string | null;
  start_time: string | null;
  end_time: string | null;
  error: string | null;
  tags: string[] | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Milliseconds (to the microsecond) from the trace's start to the run's start, and end. */
  start_offset_ms: number;
  end_offset_ms: number | null;
}

/** Where a page of a trace tree ends: its last run (the run's place is read back from it). */
export interface TreePosition {
  time: string;
  id: string;
}

// Depth-first (dotted_order compared byte-wise, whatever the database's collation); runs not
// placed yet (no dotted_order: an OpenTelemetry span waiting for its parent) last, by time.
const TREE_KEY = `(dotted_order IS NULL), COALESCE(dotted_order, '') COLLATE "C", sort_time, id`;

export async function findTraceRuns(
  db: DbClient,
  workspaceId: string,
  traceId: string,
  traceStart: string,
  opts: { after?: TreePosition; limit: number },
): Promise<TreeRun[]> {
  // The cursor names the last run, not its dotted_order (which can be long): a run deleted
  // meanwhile ends the paging.
  const after = opts.after
    ? Prisma.sql`AND (${Prisma.raw(TREE_KEY)}) > (SELECT ${Prisma.raw(TREE_KEY)} FROM "tracing_runs"
        WHERE workspace_id = ${workspaceId}::uuid AND id = ${opts.after.id}::uuid
          AND sort_time = ${opts.after.time}::timestamptz)`
    : Prisma.empty;
  const offset = (column: string) =>
    Prisma.sql`(EXTRACT(EPOCH FROM (${Prisma.raw(column)} - ${traceStart}::timestamptz)) * 1000)::float8`;
  return db.$queryRaw<TreeRun[]>(
    Prisma.sql`SELECT id::text AS id, ${Prisma.raw(isoSql("sort_time"))} AS sort_time,
        project_id::text AS project_id, parent_run_id::text AS parent_run_id, dotted_order, name,
        run_type, ${Prisma.raw(isoSql("start_time"))} AS start_time,
        ${Prisma.raw(isoSql("end_time"))} AS end_time, error, tags, prompt_tokens,
        completion_tokens, total_tokens,
        ${offset("COALESCE(start_time, sort_time)")} AS start_offset_ms,
        ${offset("end_time")} AS end_offset_ms
      FROM "tracing_runs"
      WHERE workspace_id = ${workspaceId}::uuid AND trace_id = ${traceId}::uuid ${after}
      ORDER BY ${Prisma.raw(TREE_KEY)} LIMIT ${opts.limit}`,
  );
}
