import { Prisma } from "@/generated/prisma/client";
import { readRows, type DbClient } from "@/server/db";
import { deleteProjectRuns } from "./run-store-delete";
import { findRunsJson } from "./run-store-json";
import { findTraceRuns, traceSummary } from "./run-store-tree";
import { isoSql } from "./time";

export type { DeletedRun } from "./run-store-delete";
export type { RunJsonRow } from "./run-store-json";
export type { TraceSummary, TreePosition, TreeRun } from "./run-store-tree";

// Where runs live: PostgreSQL day partitions (migration 20261201000000_tracing). The services
// reach runs only through the RunStore interface at the end of this file, so another engine (a
// column store such as ClickHouse) can take its place without changing them.

/** A run as written: absent fields are null (a patch leaves them as they are). */
export interface RunRow {
  id: string;
  sort_time: string;
  project_id: string | null;
  trace_id: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  name: string | null;
  run_type: string | null;
  start_time: string | null;
  end_time: string | null;
  error: string | null;
  inputs: unknown;
  outputs: unknown;
  events: unknown;
  extra: unknown;
  serialized: unknown;
  tags: string[] | null;
  reference_example_id: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Attachment name → its stored object (attachments.ts): merged by name, not replaced. */
  attachments: Record<string, unknown> | null;
  /** Inputs or outputs kept in the storage backend (stored-fields.ts): then `inputs` is null. */
  inputs_ref: { object: string; size: number } | null;
  outputs_ref: { object: string; size: number } | null;
}

const MERGED = [
  "project_id",
  "trace_id",
  "parent_run_id",
  "dotted_order",
  "name",
  "run_type",
  "start_time",
  "end_time",
  "error",
  "inputs",
  "outputs",
  "events",
  "extra",
  "serialized",
  "tags",
  "reference_example_id",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
] as const;

/** Fields kept inline or in the storage backend: a value and its `_ref` merge as one. */
const PAIRED = ["inputs", "outputs"] as const;

const RECORD = `x(id uuid, sort_time timestamptz, project_id uuid, trace_id uuid, parent_run_id uuid,
  dotted_order text, name text, run_type text, start_time timestamptz, end_time timestamptz,
  error text, inputs jsonb, outputs jsonb, events jsonb, extra jsonb, serialized jsonb,
  tags text[], reference_example_id uuid, prompt_tokens int, completion_tokens int,
  total_tokens int, attachments jsonb, inputs_ref jsonb, outputs_ref jsonb)`;

/** Same run twice in one statement cannot be upserted: merged first (later fields win). */
function mergeDuplicates(rows: RunRow[]): RunRow[] {
  const byKey = new Map<string, RunRow>();
  for (const row of rows) {
    const key = `${row.id}|${row.sort_time}`;
    const before = byKey.get(key);
    if (!before) {
      byKey.set(key, row);
      continue;
    }
    const merged: RunRow = { ...before };
    for (const field of MERGED) {
      if (row[field] !== null) (merged as unknown as Record<string, unknown>)[field] = row[field];
    }
    if (row.attachments) merged.attachments = { ...(before.attachments ?? {}), ...row.attachments };
    byKey.set(key, merged);
  }
  // One order for every writer: concurrent batches of the same runs never deadlock.
  return [...byKey.values()].sort((a, b) =>
    a.sort_time === b.sort_time ? a.id.localeCompare(b.id) : a.sort_time < b.sort_time ? -1 : 1,
  );
}

/**
 * One upsert statement for the batch. A post fills only what is still empty (a retried post
 * changes nothing; a patch that came first keeps its fields); a patch's fields win. A row of
 * another workspace with the same key is left alone and its id is missing from the answer; with
 * `projectId` (an ingest key's), so is a row of any other project.
 */
async function upsertRuns(
  db: DbClient,
  workspaceId: string,
  kind: "post" | "patch",
  rows: RunRow[],
  projectId?: string,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const merged = mergeDuplicates(rows);
  const simple = MERGED.filter((c) => !(PAIRED as readonly string[]).includes(c));
  const set = [
    ...simple.map((c) =>
      kind === "post"
        ? `"${c}" = COALESCE(r."${c}", excluded."${c}")`
        : `"${c}" = COALESCE(excluded."${c}", r."${c}")`,
    ),
    ...PAIRED.flatMap((c) => {
      // The stored value is the pair: a post fills it only when both are empty, a patch's wins.
      const keep =
        kind === "post"
          ? `r."${c}" IS NOT NULL OR r."${c}_ref" IS NOT NULL`
          : `excluded."${c}" IS NULL AND excluded."${c}_ref" IS NULL`;
      return [c, `${c}_ref`].map(
        (col) => `"${col}" = CASE WHEN ${keep} THEN r."${col}" ELSE excluded."${col}" END`,
      );
    }),
  ].join(", ");
  // Attachments merge by name: a post keeps the names already stored, a patch replaces them.
  const attachments =
    kind === "post"
      ? `COALESCE(excluded."attachments" || r."attachments", r."attachments", excluded."attachments")`
      : `COALESCE(r."attachments" || excluded."attachments", excluded."attachments", r."attachments")`;
  const written = [...MERGED, "attachments", "inputs_ref", "outputs_ref"];
  const columns = written.map((c) => `"${c}"`).join(", ");
  const values = written.map((c) => `x."${c}"`).join(", ");
  const sql = `INSERT INTO "tracing_runs" AS r ("id", "sort_time", "workspace_id", ${columns}, "posted")
    SELECT x.id, x.sort_time, $1::uuid, ${values}, ${kind === "post"}
      FROM jsonb_to_recordset($2::jsonb) AS ${RECORD}
     ORDER BY x.sort_time, x.id
    ON CONFLICT ("id", "sort_time") DO UPDATE SET ${set}, "attachments" = ${attachments},
      "posted" = r."posted" OR excluded."posted", "updated_at" = now()
    WHERE r."workspace_id" = excluded."workspace_id"${projectId ? ` AND r."project_id" = $3::uuid` : ""}
    RETURNING "id"::text AS id`;
  // On the pool directly: Prisma's raw layer cost more CPU per batch than building it did.
  const stored = await readRows<{ id: string }>(db, {
    text: sql,
    values: [workspaceId, JSON.stringify(merged), ...(projectId ? [projectId] : [])],
  });
  return new Set(stored.map((w) => w.id));
}

/** The partition time of runs already stored in the workspace (in the project, if given), by id. */
async function runTimesById(
  db: DbClient,
  workspaceId: string,
  ids: string[],
  projectId?: string,
): Promise<Map<string, string>> {
  const rows = await db.$queryRawUnsafe<{ id: string; t: string }[]>(
    `SELECT id::text AS id, ${isoSql("sort_time")} AS t FROM "tracing_runs"
      WHERE workspace_id = $1::uuid AND id = ANY($2::uuid[])${projectId ? " AND project_id = $3::uuid" : ""}`,
    workspaceId,
    ids,
    ...(projectId ? [projectId] : []),
  );
  return new Map(rows.map((r) => [r.id, r.t]));
}

/** A stored run, times as ISO text with microseconds. */
export interface StoredRun extends Omit<
  RunRow,
  "sort_time" | "attachments" | "inputs_ref" | "outputs_ref"
> {
  sort_time: string;
  attachments: unknown;
  inputs_ref: unknown;
  outputs_ref: unknown;
}

const SELECT = Prisma.raw(`SELECT id::text AS id, ${isoSql("sort_time")} AS sort_time,
  project_id::text AS project_id, trace_id::text AS trace_id, parent_run_id::text AS parent_run_id,
  dotted_order, name, run_type, ${isoSql("start_time")} AS start_time,
  ${isoSql("end_time")} AS end_time, error, inputs, outputs, events, extra, serialized, tags,
  reference_example_id::text AS reference_example_id, attachments, prompt_tokens,
  completion_tokens, total_tokens, inputs_ref, outputs_ref
  FROM "tracing_runs"`);

/** Which runs: every given field must hold. */
export interface RunConditions {
  workspaceId: string;
  projectIds?: string[];
  traceId?: string;
  ids?: string[];
  parentRunId?: string;
  isRoot?: boolean;
  runType?: string;
  name?: string;
  error?: boolean;
  status?: "success" | "error" | "pending";
  /** Runs carrying every one of these tags. */
  tags?: string[];
  /** Runs whose `extra.metadata` holds each of these keys with this value. */
  metadata?: Record<string, string | number | boolean>;
  startedFrom?: string;
  startedBefore?: string;
  /** A part of the name, any case (the dashboard's search). */
  nameContains?: string;
}

export interface RunFilter extends RunConditions {
  /** Keyset paging: runs after this (sort_time, id) in the order. */
  after?: { time: string; id: string };
  order: "asc" | "desc";
  limit: number;
}

/** The conditions of a filter (paging aside); time bounds prune the day partitions. */
function runConditions(f: RunConditions): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`workspace_id = ${f.workspaceId}::uuid`];
  // One project (the usual query) as `=`: PostgreSQL 15 walks the index in order only then.
  if (f.projectIds?.length === 1) where.push(Prisma.sql`project_id = ${f.projectIds[0]}::uuid`);
  else if (f.projectIds) where.push(Prisma.sql`project_id = ANY(${f.projectIds}::uuid[])`);
  if (f.traceId) where.push(Prisma.sql`trace_id = ${f.traceId}::uuid`);
  if (f.ids) where.push(Prisma.sql`id = ANY(${f.ids}::uuid[])`);
  if (f.parentRunId) where.push(Prisma.sql`parent_run_id = ${f.parentRunId}::uuid`);
  if (f.isRoot === true) where.push(Prisma.sql`parent_run_id IS NULL`);
  if (f.isRoot === false) where.push(Prisma.sql`parent_run_id IS NOT NULL`);
  if (f.runType) where.push(Prisma.sql`run_type = ${f.runType}`);
  if (f.name) where.push(Prisma.sql`name = ${f.name}`);
  if (f.error === true) where.push(Prisma.sql`error IS NOT NULL`);
  if (f.error === false) where.push(Prisma.sql`error IS NULL`);
  if (f.status === "error") where.push(Prisma.sql`error IS NOT NULL`);
  if (f.status === "success") where.push(Prisma.sql`error IS NULL AND end_time IS NOT NULL`);
  if (f.status === "pending") where.push(Prisma.sql`error IS NULL AND end_time IS NULL`);
  // Containment, so the GIN indexes of migration 20261203000000_tracing_query serve them.
  if (f.tags?.length) where.push(Prisma.sql`tags @> ${f.tags}::text[]`);
  if (f.metadata && Object.keys(f.metadata).length)
    where.push(Prisma.sql`(extra -> 'metadata') @> ${JSON.stringify(f.metadata)}::jsonb`);
  if (f.startedFrom) where.push(Prisma.sql`sort_time >= ${f.startedFrom}::timestamptz`);
  if (f.startedBefore) where.push(Prisma.sql`sort_time < ${f.startedBefore}::timestamptz`);
  if (f.nameContains)
    where.push(Prisma.sql`name ILIKE ${`%${f.nameContains.replace(/[\\%_]/g, "\\$&")}%`}`);
  return where;
}

/** The one statement findRuns sends; `select` is its SELECT list and FROM (run-store-json.ts). */
export function findRunsSql(f: RunFilter, select: Prisma.Sql = SELECT): Prisma.Sql {
  const where = runConditions(f);
  if (f.after) {
    where.push(
      f.order === "desc"
        ? Prisma.sql`(sort_time, id) < (${f.after.time}::timestamptz, ${f.after.id}::uuid)`
        : Prisma.sql`(sort_time, id) > (${f.after.time}::timestamptz, ${f.after.id}::uuid)`,
    );
  }
  // The table's own columns, not the SELECT's text copies of the same names: the index's order.
  const order = Prisma.raw(
    f.order === "desc"
      ? `"tracing_runs"."sort_time" DESC, "tracing_runs"."id" DESC`
      : `"tracing_runs"."sort_time", "tracing_runs"."id"`,
  );
  // The limit as a literal, never a parameter: a generic plan that cannot see it (a prepared
  // statement's, after a few runs) sorts the whole project instead of reading the index's top.
  const limit = Prisma.raw(String(Math.max(1, Math.trunc(f.limit))));
  return Prisma.sql`${select} WHERE ${Prisma.join(where, " AND ")} ORDER BY ${order} LIMIT ${limit}`;
}

/** Runs matching every given filter, in (sort_time, id) order. */
async function findRuns(db: DbClient, f: RunFilter): Promise<StoredRun[]> {
  return db.$queryRaw<StoredRun[]>(findRunsSql(f));
}

export type StatsInterval = "minute" | "hour" | "day";

/** Counts, error count, latency percentiles and tokens of some runs (latency in seconds). */
export interface RunStatsRow {
  /** The bucket's start (UTC, `date_trunc` of the run's time); null for the totals row. */
  bucket: string | null;
  run_count: number;
  error_count: number;
  latency_p50: number | null;
  latency_p99: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  last_run_start_time: string | null;
}

/**
 * One statement: the totals (bucket null) and one row per non-empty bucket of the interval.
 * Latency is end_time − start_time of the runs that have ended (pending runs are counted but
 * have none); the bounds in `f` prune the day partitions.
 */
async function runStats(
  db: DbClient,
  f: RunConditions,
  interval: StatsInterval,
): Promise<RunStatsRow[]> {
  const where = Prisma.join(runConditions(f), " AND ");
  return db.$queryRaw<RunStatsRow[]>(Prisma.sql`
    SELECT to_char(bucket, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS bucket,
           count(*)::int AS run_count,
           count(*) FILTER (WHERE error IS NOT NULL)::int AS error_count,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY latency) AS latency_p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY latency) AS latency_p99,
           COALESCE(sum(prompt_tokens), 0)::float8 AS prompt_tokens,
           COALESCE(sum(completion_tokens), 0)::float8 AS completion_tokens,
           COALESCE(sum(total_tokens), 0)::float8 AS total_tokens,
           ${Prisma.raw(isoSql("max(sort_time)"))} AS last_run_start_time
      FROM (SELECT date_trunc(${interval}, sort_time AT TIME ZONE 'UTC') AS bucket, sort_time, error,
                   prompt_tokens, completion_tokens, total_tokens,
                   -- GREATEST skips nulls: a pending run's latency stays null, not 0.
                   CASE WHEN end_time IS NOT NULL THEN GREATEST(0, EXTRACT(EPOCH FROM
                     end_time - COALESCE(start_time, sort_time)))::float8 END AS latency
              FROM "tracing_runs" WHERE ${where}) AS r
     GROUP BY GROUPING SETS ((bucket), ())
     ORDER BY bucket NULLS FIRST`);
}

/** A project's root runs (traces) since a time, their errors, and its newest run's time. */
export interface ProjectActivity {
  project_id: string;
  traces: number;
  errors: number;
  last_run_time: string | null;
}

/** Per project: one count over the recent partitions, one index probe for the newest run. */
async function projectActivity(
  db: DbClient,
  workspaceId: string,
  projectIds: string[],
  since: string,
): Promise<ProjectActivity[]> {
  if (projectIds.length === 0) return [];
  return db.$queryRaw<ProjectActivity[]>(Prisma.sql`
    SELECT p.id::text AS project_id, a.traces, a.errors,
           ${Prisma.raw(isoSql("l.sort_time"))} AS last_run_time
      FROM unnest(${projectIds}::uuid[]) AS p(id)
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS traces, count(*) FILTER (WHERE error IS NOT NULL)::int AS errors
          FROM "tracing_runs"
         WHERE workspace_id = ${workspaceId}::uuid AND project_id = p.id
           AND parent_run_id IS NULL AND sort_time >= ${since}::timestamptz) AS a
      LEFT JOIN LATERAL (
        SELECT sort_time FROM "tracing_runs"
         WHERE workspace_id = ${workspaceId}::uuid AND project_id = p.id
         ORDER BY sort_time DESC LIMIT 1) AS l ON true`);
}

/** Whether a run with this id is stored in another workspace than this one (and not in it). */
async function runIdElsewhere(db: DbClient, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ mine: boolean }[]>(
    Prisma.sql`SELECT bool_or(workspace_id = ${workspaceId}::uuid) AS mine FROM "tracing_runs" WHERE id = ${id}::uuid`,
  );
  return rows[0]?.mine === false;
}

/** A run stored without its dotted_order: an OpenTelemetry span whose parent came later. */
export interface UnplacedRun {
  id: string;
  trace_id: string;
  parent_run_id: string | null;
  sort_time: string;
}

/** The runs of these traces that have no dotted_order yet (otel.ts places them). */
async function runsWithoutDottedOrder(
  db: DbClient,
  workspaceId: string,
  traceIds: string[],
): Promise<UnplacedRun[]> {
  if (traceIds.length === 0) return [];
  return db.$queryRaw<UnplacedRun[]>(
    Prisma.sql`SELECT id::text AS id, trace_id::text AS trace_id, parent_run_id::text AS parent_run_id,
      ${Prisma.raw(isoSql("sort_time"))} AS sort_time FROM "tracing_runs"
      WHERE workspace_id = ${workspaceId}::uuid AND trace_id = ANY(${traceIds}::uuid[])
        AND dotted_order IS NULL
      LIMIT 10000`,
  );
}

/** What the tracing services need from wherever runs are stored. */
export interface RunStore {
  upsertRuns: typeof upsertRuns;
  runTimesById: typeof runTimesById;
  findRuns: typeof findRuns;
  findRunsJson: typeof findRunsJson;
  runIdElsewhere: typeof runIdElsewhere;
  runsWithoutDottedOrder: typeof runsWithoutDottedOrder;
  deleteProjectRuns: typeof deleteProjectRuns;
  traceSummary: typeof traceSummary;
  findTraceRuns: typeof findTraceRuns;
  runStats: typeof runStats;
  projectActivity: typeof projectActivity;
}

/** Runs in PostgreSQL, one partition a day (partitions.ts keeps the partitions). */
export const runStore: RunStore = {
  upsertRuns,
  runTimesById,
  findRuns,
  findRunsJson,
  runIdElsewhere,
  runsWithoutDottedOrder,
  deleteProjectRuns,
  traceSummary,
  findTraceRuns,
  runStats,
  projectActivity,
};
