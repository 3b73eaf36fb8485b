import { Prisma } from "@/generated/prisma/client";
import type { RunField } from "@/schemas/tracing";
import { readRows, type DbClient } from "@/server/db";
import { TRACING_OBJECT_PATH } from "@/server/storage/types";
import { findRunsSql, type RunFilter } from "./run-store";
import { isoSql } from "./time";

// The run query's answer built by PostgreSQL (POST /runs/query): each run as the SDK's Run JSON
// text, exactly as toRun (runs-read.ts) makes it from a stored row, so the REST door sends the
// text as it is instead of turning the runs' JSON into objects and back.

/** A JSON value column whose JSON null reads as absent (toRun's `??`). */
const value = (column: string) => `NULLIF(${column}, 'null'::jsonb)`;

/** `<field>_s3_urls`: where a field kept in the storage backend is read (storedFieldMarkers). */
const marker = (ref: string) => `CASE WHEN ${ref} ->> 'object' ~ '${TRACING_OBJECT_PATH.source}'
  THEN json_build_object('ROOT', json_build_object('presigned_url', '/api/v1/runs/' || id,
    's3_url', NULL::text, 'size', ${ref} -> 'size')) END`;

/**
 * Each field of the SDK's Run as SQL on a `tracing_runs` row, in toRun's order. Attachment names
 * are letters, digits, spaces, _ and - (ATTACHMENT_NAME), so a space is all encodeURIComponent
 * would change in their URLs.
 */
const RUN_JSON: Record<RunField, string> = {
  id: "id",
  name: "COALESCE(name, '')",
  run_type: "COALESCE(run_type, 'chain')",
  start_time: isoSql("COALESCE(start_time, sort_time)"),
  end_time: isoSql("end_time"),
  status: `CASE WHEN error IS NOT NULL THEN 'error' WHEN end_time IS NOT NULL THEN 'success'
    ELSE 'pending' END`,
  error: "error",
  inputs: `CASE WHEN inputs_ref IS NOT NULL THEN NULL ELSE COALESCE(${value("inputs")}, '{}') END`,
  outputs: "outputs",
  events: `COALESCE(${value("events")}, '[]')`,
  extra: `COALESCE(${value("extra")}, '{}')`,
  serialized: "serialized",
  tags: "COALESCE(tags, '{}')",
  trace_id: "COALESCE(trace_id, id)",
  dotted_order: "dotted_order",
  parent_run_id: "parent_run_id",
  // The ids of the dotted_order's segments but the last (the run's own).
  parent_run_ids: `COALESCE(to_json((string_to_array(lower(regexp_replace(dotted_order,
    '[0-9]{8}T[0-9]{12}Z', '', 'g')), '.'))[1:array_length(string_to_array(dotted_order, '.'), 1) - 1]),
    '[]'::json)`,
  session_id: "project_id",
  reference_example_id: "reference_example_id",
  s3_urls: `CASE WHEN jsonb_typeof(attachments) = 'object' THEN COALESCE((
    SELECT json_object_agg('attachment.' || a.key, json_build_object(
      'presigned_url', '/api/v1/runs/' || id || '/attachments/' || replace(a.key, ' ', '%20'),
      's3_url', NULL::text, 'mime_type', a.value -> 'mime_type', 'size', a.value -> 'size'))
    FROM jsonb_each(attachments) AS a), '{}'::json) ELSE '{}'::json END`,
  prompt_tokens: "prompt_tokens",
  completion_tokens: "completion_tokens",
  total_tokens: "total_tokens",
  child_run_ids: "NULL::text",
  feedback_stats: "NULL::text",
  app_path: "NULL::text",
  first_token_time: "NULL::text",
  prompt_cost: "NULL::text",
  completion_cost: "NULL::text",
  total_cost: "NULL::text",
  inputs_s3_urls: marker("inputs_ref"),
  outputs_s3_urls: marker("outputs_ref"),
};

const ALL_FIELDS = Object.keys(RUN_JSON) as RunField[];

/** The SELECT list: the run's JSON text, and its (sort_time, id) for the next page's cursor. */
function selectJson(fields: readonly RunField[]): Prisma.Sql {
  const pairs = fields.map((f) => `'${f}', ${RUN_JSON[f]}`).join(",\n  ");
  return Prisma.raw(`SELECT json_build_object(${pairs})::text AS json,
  ${isoSql("sort_time")} AS sort_time, id::text AS id
  FROM "tracing_runs"`);
}

/** The one statement findRunsJson sends (bench:ingest times it bare, without the API around it). */
export function findRunsJsonSql(f: RunFilter, fields: readonly RunField[] = ALL_FIELDS) {
  return findRunsSql(f, selectJson(fields));
}

export interface RunJsonRow {
  json: string;
  sort_time: string;
  id: string;
}

/**
 * Runs matching the filter as the SDK's Run JSON, all fields or these (each once), in order.
 * Sent unnamed: a named statement per distinct text (selections, filters, limits) would pile up
 * on every pooled connection.
 */
export async function findRunsJson(
  db: DbClient,
  f: RunFilter,
  fields?: readonly RunField[],
): Promise<RunJsonRow[]> {
  return readRows<RunJsonRow>(db, findRunsJsonSql(f, fields), { named: false });
}
