import type { TraceTree, TreeRunView } from "@/schemas/tracing";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { invalidField, notFound } from "@/server/errors";
import { isUuid } from "./ids";
import { runStore, type TreePosition, type TreeRun } from "./run-store";
import { toIsoInstant } from "./time";

// A whole trace as a tree, for a waterfall: runs depth first (dotted_order), each with its
// parent, depth and start/end offsets from the trace's start, a bounded page at a time.

export const TRACE_TREE_DEFAULT_LIMIT = 500;
export const TRACE_TREE_MAX_LIMIT = 1000;

const encodeCursor = (run: TreeRun) =>
  Buffer.from(JSON.stringify([run.sort_time, run.id])).toString("base64url");

function decodeCursor(cursor: string, loc: (string | number)[]): TreePosition {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const instant = typeof time === "string" ? toIsoInstant(time) : null;
    if (instant && typeof id === "string" && isUuid(id)) return { time: instant, id };
  } catch {
    // falls through to the 422
  }
  throw invalidField(loc, "Not a cursor this API returned", "value_error");
}

function toTreeRun(row: TreeRun): TreeRunView {
  return {
    id: row.id,
    name: row.name ?? "",
    run_type: row.run_type ?? "chain",
    status: row.error !== null ? "error" : row.end_time !== null ? "success" : "pending",
    error: row.error,
    parent_run_id: row.parent_run_id,
    depth: row.dotted_order ? row.dotted_order.split(".").length - 1 : null,
    dotted_order: row.dotted_order,
    session_id: row.project_id,
    start_time: row.start_time ?? row.sort_time,
    end_time: row.end_time,
    start_offset_ms: row.start_offset_ms,
    end_offset_ms: row.end_offset_ms,
    tags: row.tags ?? [],
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    total_tokens: row.total_tokens,
  };
}

export interface TraceTreeOptions {
  /** Runs per page: 1..1000, default 500. */
  limit?: number;
  /** `cursors.next` of the previous page. */
  cursor?: string | null;
  /** Where a bad cursor is named in the 422 (the REST query's, by default). */
  cursorLoc?: (string | number)[];
}

/**
 * One page of a trace of the caller's workspace (another workspace's, or none: 404). The
 * dashboard's router calls this as the REST route does.
 */
export async function readTraceTree(
  db: DbClient,
  actor: Actor,
  traceId: string,
  options: TraceTreeOptions = {},
): Promise<TraceTree> {
  const limit = Math.min(
    Math.max(Math.trunc(options.limit ?? TRACE_TREE_DEFAULT_LIMIT), 1),
    TRACE_TREE_MAX_LIMIT,
  );
  const after = options.cursor
    ? decodeCursor(options.cursor, options.cursorLoc ?? ["query", "cursor"])
    : undefined;
  const summary = isUuid(traceId)
    ? await runStore.traceSummary(db, actor.workspaceId, traceId)
    : null;
  if (!summary || summary.run_count === 0 || !summary.start_time)
    throw notFound(`Trace ${traceId} not found`);
  const rows = await runStore.findTraceRuns(db, actor.workspaceId, traceId, summary.start_time, {
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(page[page.length - 1]!) : null;
  return {
    trace_id: traceId.toLowerCase(),
    root_run_id: summary.root_run_id,
    start_time: summary.start_time,
    end_time: summary.end_time,
    run_count: summary.run_count,
    runs: page.map(toTreeRun),
    truncated: next !== null,
    cursors: { next },
  };
}

/** The tree of the trace a run belongs to (any run of it, not only the root). */
export async function readRunTree(
  db: DbClient,
  actor: Actor,
  runId: string,
  options: TraceTreeOptions = {},
): Promise<TraceTree> {
  const [run] = isUuid(runId)
    ? await runStore.findRuns(db, {
        workspaceId: actor.workspaceId,
        ids: [runId],
        order: "desc",
        limit: 1,
      })
    : [];
  if (!run) throw notFound(`Run ${runId} not found`);
  return readTraceTree(db, actor, run.trace_id ?? run.id, options);
}
