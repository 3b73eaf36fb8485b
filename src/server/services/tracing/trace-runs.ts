import type { TraceRuns } from "@/schemas/tracing-dashboard";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { toRunSummary } from "./run-list";
import { runStore, type StoredRun } from "./run-store";

// A trace's runs for the dashboard's waterfall: parents before children (dotted_order), each
// with its depth; bounded, so a runaway trace cannot fill the page.

export const TRACE_RUNS_LIMIT = 1000;

/** dotted_order sorts a parent before its children; runs without one (a span whose parent never
 * came) follow, by time. Depth: the dotted_order's segments, else the parent chain. */
function inTreeOrder(rows: StoredRun[]) {
  const sorted = [...rows].sort((a, b) => {
    if (a.dotted_order && b.dotted_order) return a.dotted_order < b.dotted_order ? -1 : 1;
    if (a.dotted_order || b.dotted_order) return a.dotted_order ? -1 : 1;
    return a.sort_time < b.sort_time ? -1 : a.sort_time > b.sort_time ? 1 : 0;
  });
  const parentOf = new Map(rows.map((r) => [r.id, r.parent_run_id]));
  const depthOf = (row: StoredRun) => {
    if (row.dotted_order) return row.dotted_order.split(".").length - 1;
    let depth = 0;
    for (let p = row.parent_run_id; p && parentOf.has(p) && depth < rows.length; depth++)
      p = parentOf.get(p) ?? null;
    return depth;
  };
  return sorted.map((row) => ({ ...toRunSummary(row), depth: depthOf(row) }));
}

export async function listTraceRuns(
  db: DbClient,
  actor: Actor,
  traceId: string,
): Promise<TraceRuns> {
  const rows = await runStore.findRuns(db, {
    workspaceId: actor.workspaceId,
    traceId,
    order: "asc",
    limit: TRACE_RUNS_LIMIT + 1,
  });
  if (rows.length === 0) throw notFound(`Trace ${traceId} not found`);
  return {
    runs: inTreeOrder(rows.slice(0, TRACE_RUNS_LIMIT)),
    truncated: rows.length > TRACE_RUNS_LIMIT,
  };
}
