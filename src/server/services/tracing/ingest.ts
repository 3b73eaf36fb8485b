import { runWrite, type RunWrite } from "@/schemas/tracing";
import { requireRole, type Actor, type IngestScope } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError, type ValidationIssue } from "@/server/errors";
import { parseOrThrow } from "@/server/validation";
import type { AttachmentUpload } from "./attachments";
import { TRACING_FUTURE_DAYS } from "./limits";
import { ensureRunPartitions, retentionCutoff } from "./partitions";
import { projectIdsByName, projectIdsInWorkspace } from "./projects";
import { runStore, type RunRow } from "./run-store";
import { removeRefusedObjects, storeRunObjects } from "./run-objects";
import { DAY_MS, parseDottedOrder, toIsoInstant, type DottedOrder } from "./time";

// Run ingest, one door for every route (multipart, batch, single post and patch): each run is
// checked on its own, so one bad run is refused with its reason and the rest are stored.

export interface RunOp {
  kind: "post" | "patch";
  /** Where the run came from in the request, for its error (e.g. ["body", "post.<id>"]). */
  loc: (string | number)[];
  value: unknown;
  /** Multipart `attachment.<id>.<name>` parts, stored with the run (attachments.ts). */
  attachments?: AttachmentUpload[];
}

/**
 * One refused run or part: its status says why (403 another project than an ingest key's, 404
 * unknown, 409 id in use, 413, 422).
 */
export interface IngestIssue extends ValidationIssue {
  status: 403 | 404 | 409 | 413 | 422;
}

export interface IngestOutcome {
  accepted: number;
  issues: IngestIssue[];
}

const issue = (
  loc: (string | number)[],
  msg: string,
  type: string,
  status: IngestIssue["status"] = 422,
): IngestIssue => ({ loc, msg, type, status });

interface Planned {
  op: RunOp;
  run: RunWrite;
  sortTime: string | null;
  /** The run's dotted_order and times, read once (null when absent or not a time). */
  dotted: DottedOrder | null;
  start: string | null;
  end: string | null;
}

/** Stores posts and patches: posts first, so a post and its patch in one batch merge. */
export async function ingestRuns(
  db: Db,
  actor: Actor,
  ops: RunOp[],
  now = new Date(),
): Promise<IngestOutcome> {
  requireRole(actor, "editor");
  const scope = actor.ingest;
  const issues: IngestIssue[] = [];
  const planned: Planned[] = [];
  for (const op of ops) {
    try {
      let run = parseOrThrow("body", runWrite, op.value);
      if (scope) {
        const outside = outsideScope(run, scope, op.loc);
        if (outside) {
          issues.push(outside);
          continue;
        }
        run = { ...run, session_id: scope.projectId, session_name: undefined };
      }
      const dotted = run.dotted_order ? parseDottedOrder(run.dotted_order) : null;
      if (dotted && toIsoInstant(dotted.time) === null) {
        issues.push(
          issue(
            [...op.loc, "dotted_order"],
            "dotted_order holds an invalid time",
            "datetime_parsing",
          ),
        );
        continue;
      }
      const start = toIsoInstant(run.start_time);
      const end = toIsoInstant(run.end_time);
      planned.push({ op, run, dotted, start, end, sortTime: plannedTime(dotted, start, op.kind) });
    } catch (error) {
      if (!(error instanceof AppError) || !error.issues) throw error;
      for (const i of error.issues)
        issues.push(issue([...op.loc, ...i.loc.slice(1)], i.msg, i.type));
    }
  }
  await fillPatchTimes(db, actor.workspaceId, planned, scope?.projectId);
  const projects = await resolveProjects(db, actor.workspaceId, planned);

  const oldest = retentionCutoff(now).getTime();
  const newest = now.getTime() + TRACING_FUTURE_DAYS * DAY_MS;
  const rows: { op: RunOp; kind: RunOp["kind"]; loc: RunOp["loc"]; row: RunRow }[] = [];
  for (const p of planned) {
    const problem = checkRun(p, projects, oldest, newest);
    if (problem) issues.push(problem);
    else rows.push({ op: p.op, kind: p.op.kind, loc: p.op.loc, row: toRow(p, projects) });
  }
  // sort_time is ISO in UTC: its first ten characters are its partition's day.
  const days = new Set(rows.map((r) => r.row.sort_time.slice(0, 10)));
  await ensureRunPartitions(
    db,
    [...days].map((day) => new Date(`${day}T00:00:00Z`)),
  );
  // Stored bytes first, so a row never names an object that is not there.
  await storeRunObjects(actor.workspaceId, rows);
  let accepted = 0;
  for (const kind of ["post", "patch"] as const) {
    const ofKind = rows.filter((r) => r.kind === kind);
    const written = await runStore.upsertRuns(
      db,
      actor.workspaceId,
      kind,
      ofKind.map((r) => r.row),
      scope?.projectId,
    );
    const refused: RunRow[] = [];
    for (const r of ofKind) {
      if (written.has(r.row.id)) accepted++;
      else {
        issues.push(issue(r.loc, `Run id ${r.row.id} is already in use`, "run_id_conflict", 409));
        refused.push(r.row);
      }
    }
    await removeRefusedObjects(db, actor.workspaceId, refused);
  }
  return { accepted, issues };
}

/** The partition key: the time in the run's own dotted_order segment, else its start_time. */
function plannedTime(
  dotted: DottedOrder | null,
  start: string | null,
  kind: RunOp["kind"],
): string | null {
  if (dotted) return toIsoInstant(dotted.time);
  if (start) return start;
  return kind === "post" ? new Date().toISOString() : null;
}

/**
 * An ingest key writes into its own project only (contract 15.7): a run naming another one, by
 * id or by name, is refused (403, whether that project exists or not); one naming none is its.
 */
function outsideScope(
  run: RunWrite,
  scope: IngestScope,
  loc: (string | number)[],
): IngestIssue | null {
  const refuse = (field: string, named: string) =>
    issue(
      [...loc, field],
      `This ingest key writes only into project ${scope.projectName}, not ${named}`,
      "project_forbidden",
      403,
    );
  if (run.session_id && run.session_id.toLowerCase() !== scope.projectId)
    return refuse("session_id", run.session_id);
  if (run.session_name && run.session_name !== scope.projectName)
    return refuse("session_name", run.session_name);
  return null;
}

/** A patch naming neither dotted_order nor start_time lands on the run already stored. */
async function fillPatchTimes(
  db: Db,
  workspaceId: string,
  planned: Planned[],
  projectId: string | undefined,
) {
  const unknown = planned.filter((p) => p.sortTime === null).map((p) => p.run.id);
  if (unknown.length === 0) return;
  const times = await runStore.runTimesById(db, workspaceId, unknown, projectId);
  for (const p of planned) if (p.sortTime === null) p.sortTime = times.get(p.run.id) ?? null;
}

interface ProjectIds {
  byName: Map<string, string>;
  ids: Set<string>;
}

async function resolveProjects(db: Db, workspaceId: string, planned: Planned[]) {
  const names = planned
    .filter((p) => !p.run.session_id && (p.run.session_name || p.op.kind === "post"))
    .map((p) => p.run.session_name ?? "default");
  const ids = planned.flatMap((p) => (p.run.session_id ? [p.run.session_id] : []));
  return {
    byName: await projectIdsByName(db, workspaceId, names),
    ids: await projectIdsInWorkspace(db, workspaceId, ids),
  } satisfies ProjectIds;
}

function checkRun(p: Planned, projects: ProjectIds, oldest: number, newest: number) {
  const { run, op } = p;
  if (p.sortTime === null)
    return issue(
      op.loc,
      `Run ${run.id} not found: a patch of a run not yet stored needs its dotted_order or start_time`,
      "run_not_found",
      404,
    );
  if (p.dotted) {
    const ids = p.dotted.ids;
    if (ids[ids.length - 1] !== run.id.toLowerCase())
      return issue(
        [...op.loc, "dotted_order"],
        "dotted_order must end with the run's own id",
        "value_error",
      );
  }
  if (run.session_id && !projects.ids.has(run.session_id))
    return issue(
      [...op.loc, "session_id"],
      `Project ${run.session_id} not found`,
      "not_found",
      404,
    );
  const time = Date.parse(p.sortTime);
  if (time < oldest) return issue(op.loc, "The run started before the retention period", "too_old");
  if (time > newest) return issue(op.loc, "The run starts in the future", "too_new");
  if (run.end_time != null && p.end === null)
    return issue([...op.loc, "end_time"], "end_time is not a time", "datetime_parsing");
  if (run.start_time != null && p.start === null)
    return issue([...op.loc, "start_time"], "start_time is not a time", "datetime_parsing");
  return null;
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const int = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2 ** 31
    ? value
    : null;

/** Token counts as LangChain reports them (usage_metadata in the outputs or the metadata). */
function tokens(run: RunWrite) {
  const usage =
    asObject(asObject(run.outputs)?.usage_metadata) ??
    asObject(asObject(asObject(run.extra)?.metadata)?.usage_metadata);
  if (!usage) return { prompt: null, completion: null, total: null };
  const prompt = int(usage.input_tokens);
  const completion = int(usage.output_tokens);
  const total =
    int(usage.total_tokens) ??
    (prompt !== null && completion !== null ? prompt + completion : null);
  return { prompt, completion, total };
}

function toRow(p: Planned, projects: ProjectIds): RunRow {
  const { run } = p;
  const dotted = p.dotted?.ids ?? null;
  const projectName = run.session_name ?? (p.op.kind === "post" ? "default" : null);
  const count = tokens(run);
  return {
    id: run.id.toLowerCase(),
    sort_time: p.sortTime!,
    project_id: run.session_id ?? (projectName ? projects.byName.get(projectName) : null) ?? null,
    trace_id:
      run.trace_id ?? dotted?.[0] ?? (p.op.kind === "post" && !run.parent_run_id ? run.id : null),
    parent_run_id:
      run.parent_run_id ?? (dotted && dotted.length > 1 ? dotted[dotted.length - 2]! : null),
    dotted_order: run.dotted_order ?? null,
    name: run.name ?? null,
    run_type: run.run_type ?? null,
    start_time: p.start,
    end_time: p.end,
    error:
      run.error === undefined || run.error === null
        ? null
        : typeof run.error === "string"
          ? run.error
          : JSON.stringify(run.error),
    inputs: run.inputs ?? null,
    outputs: run.outputs ?? null,
    events: run.events ?? null,
    extra: run.extra ?? null,
    serialized: run.serialized ?? null,
    tags: run.tags ?? null,
    reference_example_id: run.reference_example_id ?? null,
    prompt_tokens: count.prompt,
    completion_tokens: count.completion,
    total_tokens: count.total,
    attachments: null,
    inputs_ref: null,
    outputs_ref: null,
  };
}
