import { createHash } from "node:crypto";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { ingestRuns, type RunOp } from "./ingest";
import { spanFields } from "./otel-attributes";
import type { OtlpSpan } from "./otlp-decode";
import { runStore } from "./run-store";
import { dottedStamp, nanosToIso } from "./time";

// OpenTelemetry spans as runs (contract 15.8): each span one run of its trace, parentage kept,
// stored through the same ingest as the SDK's runs (idempotent, merged, bounded).
//
// Ids: a run's id is a UUID v5 of (workspace, trace id, span id), the trace's of (workspace,
// trace id): the same span exported twice is the same run, and no workspace can take another's
// ids. A span's dotted_order needs its ancestors' ids and start times; a span whose parent has
// not arrived yet is stored without one and placed when the parent comes (placeUnplaced).

/** The UUID namespace of Hangar's OpenTelemetry ids. */
const NAMESPACE = Buffer.from("5f0e8a4c3b2d4e6f9a1b7c8d2e3f4a5b", "hex");

function uuidV5(name: string): string {
  const hash = createHash("sha1").update(NAMESPACE).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const otelTraceUuid = (workspaceId: string, traceId: string) =>
  uuidV5(`${workspaceId}:${traceId}`);
export const otelRunUuid = (workspaceId: string, traceId: string, spanId: string) =>
  uuidV5(`${workspaceId}:${traceId}:${spanId}`);

const validId = (hex: string, digits: number) => hex.length === digits && /[1-9a-f]/.test(hex);

export interface OtlpOutcome {
  accepted: number;
  /** Spans refused, each with its reason (the others were stored). */
  rejected: { spanId: string; reason: string }[];
}

interface Planned {
  index: number;
  span: OtlpSpan;
  runId: string;
  parentRunId: string | null;
  traceUuid: string;
  start: string;
}

/**
 * The project a span traces into when it names none itself (README "Tracing"). An ingest key's
 * spans go to its own project: the service name is no choice of project there.
 */
function defaultProject(span: OtlpSpan, header: string | null, actor: Actor): string {
  if (header?.trim()) return header.trim();
  if (actor.ingest) return actor.ingest.projectName;
  const service = span.resource["service.name"];
  // The SDKs' placeholder when no service is named is not a name anyone chose.
  if (typeof service === "string" && service !== "" && !service.startsWith("unknown_service"))
    return service;
  return "default";
}

function checkSpan(span: OtlpSpan): string | null {
  if (!validId(span.traceId, 32)) return "trace_id must be 16 bytes, not all zero";
  if (!validId(span.spanId, 16)) return "span_id must be 8 bytes, not all zero";
  if (span.parentSpanId !== "" && !validId(span.parentSpanId, 16))
    return "parent_span_id must be 8 bytes, not all zero";
  if (span.startTimeUnixNano === "0" || !nanosToIso(span.startTimeUnixNano))
    return "start_time_unix_nano is not a time";
  if (!nanosToIso(span.endTimeUnixNano)) return "end_time_unix_nano is not a time";
  return null;
}

/** Each run's dotted_order when its whole ancestry is known (else it is left out). */
function dottedOrders(planned: Planned[]): Map<string, string> {
  const byRun = new Map(planned.map((p) => [p.runId, p]));
  const done = new Map<string, string | null>();
  const resolve = (runId: string, seen: Set<string>): string | null => {
    if (done.has(runId)) return done.get(runId)!;
    const p = byRun.get(runId);
    if (!p || seen.has(runId)) return null;
    seen.add(runId);
    const own = `${dottedStamp(p.start)}Z${p.runId}`;
    const parent = p.parentRunId === null ? "" : resolve(p.parentRunId, seen);
    const dotted = parent === null ? null : parent === "" ? own : `${parent}.${own}`;
    done.set(runId, dotted);
    return dotted;
  };
  const out = new Map<string, string>();
  for (const p of planned) {
    const dotted = resolve(p.runId, new Set());
    if (dotted) out.set(p.runId, dotted);
  }
  return out;
}

function postOf(p: Planned, dotted: string | undefined, project: string) {
  const f = spanFields(p.span);
  const { span } = p;
  return {
    id: p.runId,
    trace_id: p.traceUuid,
    parent_run_id: p.parentRunId,
    dotted_order: dotted,
    name: f.name.slice(0, 1024),
    run_type: f.run_type,
    start_time: p.start,
    end_time: span.endTimeUnixNano === "0" ? null : nanosToIso(span.endTimeUnixNano),
    error: f.error,
    inputs: f.inputs,
    outputs: f.outputs,
    events: f.events.length ? f.events : undefined,
    tags: f.tags,
    extra: {
      metadata: f.metadata,
      otel: {
        trace_id: span.traceId,
        span_id: span.spanId,
        parent_span_id: span.parentSpanId || null,
        span_kind: span.kind,
        scope: span.scope,
        resource: span.resource,
      },
    },
    ...(f.session_id ? { session_id: f.session_id } : { session_name: f.session_name ?? project }),
  };
}

/**
 * Stores an export's spans as runs. `projectHeader` is the `Langsmith-Project` header. Refused
 * spans come back with their reasons; the others are stored (a retry stores nothing twice).
 */
export async function ingestOtlpSpans(
  db: Db,
  actor: Actor,
  spans: OtlpSpan[],
  projectHeader: string | null,
): Promise<OtlpOutcome> {
  requireRole(actor, "editor");
  const rejected: OtlpOutcome["rejected"] = [];
  const planned: Planned[] = [];
  // A trace's id and a parent's run id recur across an export's spans: each hashed once.
  const hashed = new Map<string, string>();
  const once = (id: string, make: () => string) => {
    let uuid = hashed.get(id);
    if (uuid === undefined) hashed.set(id, (uuid = make()));
    return uuid;
  };
  const runUuid = (traceId: string, spanId: string) =>
    once(`${traceId}:${spanId}`, () => otelRunUuid(actor.workspaceId, traceId, spanId));
  spans.forEach((span, index) => {
    const problem = checkSpan(span);
    if (problem) {
      rejected.push({ spanId: span.spanId, reason: problem });
      return;
    }
    planned.push({
      index,
      span,
      runId: runUuid(span.traceId, span.spanId),
      parentRunId: span.parentSpanId ? runUuid(span.traceId, span.parentSpanId) : null,
      traceUuid: once(span.traceId, () => otelTraceUuid(actor.workspaceId, span.traceId)),
      start: nanosToIso(span.startTimeUnixNano)!,
    });
  });
  const dotted = dottedOrders(planned);
  const ops: RunOp[] = planned.map((p) => ({
    kind: "post",
    loc: ["spans", p.index],
    value: postOf(p, dotted.get(p.runId), defaultProject(p.span, projectHeader, actor)),
  }));
  const outcome = await ingestRuns(db, actor, ops);
  const refused = new Map<number, string>();
  for (const issue of outcome.issues) {
    const index = issue.loc[1] as number;
    if (!refused.has(index)) refused.set(index, issue.msg);
  }
  for (const [index, reason] of refused) rejected.push({ spanId: spans[index]!.spanId, reason });
  const stored = planned.filter((p) => !refused.has(p.index));
  await placeUnplaced(db, actor, [...new Set(stored.map((p) => p.traceUuid))]);
  return { accepted: outcome.accepted, rejected };
}

/**
 * Gives a dotted_order to the runs of these traces stored without one whose parent is now
 * placed. Run after every export's write: of two exports racing (a child, then its parent),
 * the later reader sees the other's run, so no run stays unplaced once its ancestors are in.
 */
async function placeUnplaced(db: Db, actor: Actor, traceIds: string[]): Promise<void> {
  const unplaced = await runStore.runsWithoutDottedOrder(db, actor.workspaceId, traceIds);
  if (unplaced.length === 0) return;
  const waiting = new Set(unplaced.map((u) => u.id));
  const parentIds = [
    ...new Set(
      unplaced.flatMap((u) =>
        u.parent_run_id && !waiting.has(u.parent_run_id) ? [u.parent_run_id] : [],
      ),
    ),
  ];
  const placed = new Map<string, string>();
  if (parentIds.length) {
    const parents = await runStore.findRuns(db, {
      workspaceId: actor.workspaceId,
      ids: parentIds,
      order: "asc",
      limit: parentIds.length * 2,
    });
    for (const p of parents) if (p.dotted_order) placed.set(p.id, p.dotted_order);
  }
  const patches: RunOp[] = [];
  for (let progress = true; progress;) {
    progress = false;
    for (const u of unplaced) {
      const parent = u.parent_run_id ? placed.get(u.parent_run_id) : undefined;
      if (placed.has(u.id) || !parent) continue;
      const dotted = `${parent}.${dottedStamp(u.sort_time)}Z${u.id}`;
      placed.set(u.id, dotted);
      patches.push({
        kind: "patch",
        loc: ["placement", u.id],
        value: { id: u.id, trace_id: u.trace_id, dotted_order: dotted },
      });
      progress = true;
    }
  }
  if (patches.length) await ingestRuns(db, actor, patches);
}
