import { RUN_FIELDS, type RunField, type RunQuery } from "@/schemas/tracing";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { invalidField, notFound } from "@/server/errors";
import { attachmentLinks, attachmentsView, type AttachmentLinks } from "./attachment-urls";
import { isUuid } from "./ids";
import { requireOwnProjects } from "./projects";
import { runStore, type RunConditions, type RunFilter, type StoredRun } from "./run-store";
import { STORED_FIELDS, storedFieldMarkers, withStoredFields } from "./stored-fields";
import { parseDottedOrder, toIsoInstant } from "./time";

// Reading runs back: one run by id, and the SDK's run query with cursor paging.

/** A stored run in the SDK's Run shape, its attachments at `links`. */
export function toRun(row: StoredRun, links: AttachmentLinks): Record<string, unknown> {
  const ancestors = row.dotted_order ? parseDottedOrder(row.dotted_order).ids.slice(0, -1) : [];
  return {
    id: row.id,
    name: row.name ?? "",
    run_type: row.run_type ?? "chain",
    start_time: row.start_time ?? row.sort_time,
    end_time: row.end_time,
    status: row.error !== null ? "error" : row.end_time !== null ? "success" : "pending",
    error: row.error,
    // A stored field is null here (its marker says so); readRun puts it back whole.
    inputs: row.inputs_ref ? null : (row.inputs ?? {}),
    outputs: row.outputs,
    events: row.events ?? [],
    extra: row.extra ?? {},
    serialized: row.serialized,
    tags: row.tags ?? [],
    trace_id: row.trace_id ?? row.id,
    dotted_order: row.dotted_order,
    parent_run_id: row.parent_run_id,
    parent_run_ids: ancestors,
    session_id: row.project_id,
    reference_example_id: row.reference_example_id,
    s3_urls: attachmentsView(row.id, row.attachments, links),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    total_tokens: row.total_tokens,
    child_run_ids: null,
    feedback_stats: null,
    app_path: null,
    first_token_time: null,
    prompt_cost: null,
    completion_cost: null,
    total_cost: null,
    ...storedFieldMarkers(row),
  };
}

/** One run by id; `origin`: where the caller reached Hangar (attachmentLinks). */
export async function readRun(
  db: DbClient,
  actor: Actor,
  id: string,
  origin: string | undefined,
): Promise<Record<string, unknown>> {
  const [row] = isUuid(id)
    ? await runStore.findRuns(db, {
        workspaceId: actor.workspaceId,
        ids: [id],
        order: "desc",
        limit: 1,
      })
    : [];
  if (!row) throw notFound(`Run ${id} not found`);
  return withStoredFields(row, toRun(row, attachmentLinks(actor.workspaceId, origin)));
}

export const encodeCursor = (row: { sort_time: string; id: string }) =>
  Buffer.from(JSON.stringify([row.sort_time, row.id])).toString("base64url");

export function decodeCursor(cursor: string): { time: string; id: string } {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const instant = typeof time === "string" ? toIsoInstant(time) : null;
    if (instant && typeof id === "string" && isUuid(id)) return { time: instant, id };
  } catch {
    // falls through to the 422
  }
  throw invalidField(["body", "cursor"], "Not a cursor this API returned", "value_error");
}

/** A time filter as PostgreSQL takes it (a year it cannot store is a 422, never a 500). */
export function instantOf(value: string | null | undefined, field: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  const instant = toIsoInstant(value);
  if (!instant)
    throw invalidField(["body", field], "Not a time between 1970 and 9999", "datetime_parsing");
  return instant;
}

/** The run query's filters (POST /runs/query and /runs/stats) as the store's conditions. */
export function runConditionsOf(
  actor: Actor,
  query: Omit<RunQuery, "select" | "limit" | "cursor" | "order">,
): Omit<RunConditions, "startedFrom" | "startedBefore"> {
  return {
    workspaceId: actor.workspaceId,
    projectIds: query.session?.length ? query.session : undefined,
    traceId: query.trace ?? undefined,
    ids: query.id?.length ? query.id : undefined,
    parentRunId: query.parent_run ?? undefined,
    isRoot: query.is_root ?? (query.execution_order === 1 ? true : undefined),
    runType: query.run_type ?? undefined,
    name: query.name ?? undefined,
    error: query.error ?? undefined,
    status: query.status ?? undefined,
    tags: query.tags?.length ? query.tags : undefined,
    metadata: query.metadata ?? undefined,
  };
}

/**
 * POST /runs/query: newest first unless `order: "asc"`; `cursors.next` while more remain. The
 * answer's JSON text, its runs built by PostgreSQL (run-store-json.ts); the project check and
 * the page are read at once (a project of another workspace is still a 404: its runs are never
 * the caller's, and the page is thrown away).
 */
export async function queryRunsJson(
  db: DbClient,
  actor: Actor,
  query: RunQuery,
  origin: string,
): Promise<string> {
  const owned = requireOwnProjects(db, actor, query.session);
  let filter: RunFilter;
  let fields: RunField[] | undefined;
  try {
    const select = query.select?.length ? query.select : null;
    const unknown = select?.find((f) => !(RUN_FIELDS as readonly string[]).includes(f));
    if (unknown) throw invalidField(["body", "select"], `Unknown run field ${unknown}`, "enum");
    // A stored field selected comes with its marker (null inputs alone would look empty).
    const markers = STORED_FIELDS.filter((f) => select?.includes(f)).map((f) => `${f}_s3_urls`);
    fields = select ? ([...new Set(["id", ...select, ...markers])] as RunField[]) : undefined;
    filter = {
      ...runConditionsOf(actor, query),
      startedFrom: instantOf(query.start_time, "start_time"),
      startedBefore: instantOf(query.end_time, "end_time"),
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      order: query.order ?? "desc",
      limit: (query.limit ?? 100) + 1,
    };
  } catch (error) {
    await owned; // a 404 comes before the body's 422s
    throw error;
  }
  const limit = filter.limit - 1;
  const [, rows] = await Promise.all([
    owned,
    runStore.findRunsJson(db, filter, attachmentLinks(actor.workspaceId, origin), fields),
  ]);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(page[page.length - 1]!) : null;
  return `{"runs":[${page.map((r) => r.json).join(",")}],"cursors":{"next":${JSON.stringify(next)}}}`;
}
