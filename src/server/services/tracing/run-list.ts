import type { ListRunsInput, RunSummary } from "@/schemas/tracing-dashboard";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { requireOwnProjects } from "./projects";
import { runStore, type StoredRun } from "./run-store";
import { decodeCursor, encodeCursor, instantOf } from "./runs-read";

// A project's runs for the dashboard: filters, newest first, a cursor; rows without payloads.

const PREVIEW_CHARS = 160;

function toRunSummary(row: StoredRun): RunSummary {
  const start = row.start_time ?? row.sort_time;
  const latency =
    row.end_time !== null
      ? Math.max(0, (Date.parse(row.end_time) - Date.parse(start)) / 1000)
      : null;
  const firstLine = row.error?.split("\n", 1)[0] ?? null;
  return {
    id: row.id,
    name: row.name ?? "",
    run_type: row.run_type ?? "chain",
    status: row.error !== null ? "error" : row.end_time !== null ? "success" : "pending",
    start_time: start,
    end_time: row.end_time,
    latency,
    total_tokens: row.total_tokens,
    trace_id: row.trace_id ?? row.id,
    parent_run_id: row.parent_run_id,
    error_preview:
      firstLine === null
        ? null
        : firstLine.length > PREVIEW_CHARS
          ? `${firstLine.slice(0, PREVIEW_CHARS)}…`
          : firstLine,
  };
}

export async function listRunSummaries(db: DbClient, actor: Actor, input: ListRunsInput) {
  await requireOwnProjects(db, actor, [input.projectId]);
  const rows = await runStore.findRuns(db, {
    workspaceId: actor.workspaceId,
    projectIds: [input.projectId],
    isRoot: input.rootOnly ? true : undefined,
    runType: input.runType || undefined,
    nameContains: input.search || undefined,
    status: input.status,
    startedFrom: instantOf(input.startTime, "startTime"),
    startedBefore: instantOf(input.endTime, "endTime"),
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
    order: "desc",
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    runs: page.map(toRunSummary),
    next: rows.length > input.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}
