import { Prisma } from "@/generated/prisma/client";
import { RUN_FIELDS, type RunField } from "@/schemas/tracing";
import { readRows, type DbClient } from "@/server/db";
import { TRACING_OBJECT_PATH } from "@/server/storage/types";
import { attachmentsView, type AttachmentLinks } from "./attachment-urls";
import { findRunsSql, type RunFilter } from "./run-store";
import { isoSql } from "./time";

// The run query's answer built by PostgreSQL (POST /runs/query): each run as the SDK's Run JSON
// text, exactly as toRun (runs-read.ts) makes it from a stored row, so the REST door sends the
// text as it is instead of turning the runs' JSON into objects and back. All but `s3_urls`:
// its URLs are signed with a server key the database never sees, so toRun's own attachmentsView
// makes it from the row's `attachments`, and it goes between the text of the fields around it.

/** A JSON value column whose JSON null reads as absent (toRun's `??`). */
const value = (column: string) => `NULLIF(${column}, 'null'::jsonb)`;

/** `<field>_s3_urls`: where a field kept in the storage backend is read (storedFieldMarkers). */
const marker = (ref: string) => `CASE WHEN ${ref} ->> 'object' ~ '${TRACING_OBJECT_PATH.source}'
  THEN json_build_object('ROOT', json_build_object('presigned_url', '/api/v1/runs/' || id,
    's3_url', NULL::text, 'size', ${ref} -> 'size')) END`;

type SqlField = Exclude<RunField, "s3_urls">;

/** Each field of the SDK's Run but s3_urls as SQL on a `tracing_runs` row, in toRun's order. */
const RUN_JSON: Record<SqlField, string> = {
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

const objectOf = (fields: readonly RunField[]) =>
  `json_build_object(${fields
    .filter((f): f is SqlField => f !== "s3_urls")
    .map((f) => `'${f}', ${RUN_JSON[f]}`)
    .join(",\n  ")})::text`;

/**
 * The SELECT list: the run's JSON text (the fields before `s3_urls` when it is selected, then
 * those after it and the attachments), and its (sort_time, id) for the next page's cursor.
 */
function selectJson(fields: readonly RunField[]): Prisma.Sql {
  const at = fields.indexOf("s3_urls");
  const parts =
    at < 0
      ? `${objectOf(fields)} AS json, NULL::text AS json_after, NULL::jsonb AS attachments`
      : `${objectOf(fields.slice(0, at))} AS json, ${objectOf(fields.slice(at + 1))} AS json_after,
  attachments`;
  return Prisma.raw(`SELECT ${parts}, ${isoSql("sort_time")} AS sort_time, id::text AS id
  FROM "tracing_runs"`);
}

/** The one statement findRunsJson sends (bench:ingest times it bare, without the API around it). */
export function findRunsJsonSql(f: RunFilter, fields: readonly RunField[] = RUN_FIELDS) {
  return findRunsSql(f, selectJson(fields));
}

export interface RunJsonRow {
  json: string;
  sort_time: string;
  id: string;
}

interface RunJsonParts extends RunJsonRow {
  json_after: string | null;
  attachments: unknown;
}

/** `{before…, "s3_urls": …, after…}`: the row's s3_urls as toRun makes it, between the texts. */
function withAttachments(row: RunJsonParts, links: AttachmentLinks): RunJsonRow {
  const { json, json_after: after, sort_time, id } = row;
  if (after === null) return { json, sort_time, id };
  const s3Urls = `"s3_urls" : ${JSON.stringify(attachmentsView(id, row.attachments, links))}`;
  const members = [json.slice(1, -1), s3Urls, after.slice(1, -1)].filter((m) => m !== "");
  return { json: `{${members.join(", ")}}`, sort_time, id };
}

/**
 * Runs matching the filter as the SDK's Run JSON, all fields or these (each once), in order,
 * their attachments at `links`. Sent unnamed: a named statement per distinct text (selections,
 * filters, limits) would pile up on every pooled connection.
 */
export async function findRunsJson(
  db: DbClient,
  f: RunFilter,
  links: AttachmentLinks,
  fields?: readonly RunField[],
): Promise<RunJsonRow[]> {
  const rows = await readRows<RunJsonParts>(db, findRunsJsonSql(f, fields), { named: false });
  return rows.map((row) => withAttachments(row, links));
}
