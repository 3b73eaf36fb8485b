import { z } from "zod";

// The tracing API (contract section 15): what the reference platform's tracing SDK sends and
// reads, under /api/v1. Unknown fields are ignored (the SDK adds fields over time).

const uuid = z.uuid();
/** Epoch milliseconds (the JS SDK) or an ISO 8601 string (the Python SDK, microseconds). */
const instant = z.union([z.number().finite().nonnegative(), z.string().min(1).max(64)]);
const json = z.unknown().optional();

/** `YYYYMMDDTHHMMSSffffffZ<uuid>` segments joined by dots, root first (the SDK's dotted_order). */
export const DOTTED_SEGMENT =
  /^(\d{8}T\d{6}\d{6})Z([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const dottedOrder = z
  .string()
  .max(64 * 1024)
  .refine((value) => value.split(".").every((segment) => DOTTED_SEGMENT.test(segment)), {
    message: "dotted_order: segments of YYYYMMDDTHHMMSSffffffZ<run uuid> joined by dots",
  });

/** One run as posted or patched (every field but the id optional for a patch). */
export const runWrite = z.object({
  id: uuid,
  name: z.string().max(1024).nullish(),
  run_type: z.string().max(64).nullish(),
  start_time: instant.nullish(),
  end_time: instant.nullish(),
  trace_id: uuid.nullish(),
  dotted_order: dottedOrder.nullish(),
  parent_run_id: uuid.nullish(),
  session_id: uuid.nullish(),
  session_name: z.string().min(1).max(200).nullish(),
  inputs: json,
  outputs: json,
  events: json,
  extra: json,
  serialized: json,
  error: json,
  tags: z.array(z.string().max(256)).max(256).nullish(),
  reference_example_id: uuid.nullish(),
});
export type RunWrite = z.infer<typeof runWrite>;

/** The SDK never sends an empty batch: one naming no run is a mistake (422), not a no-op. */
export const runBatchBody = z
  .object({
    post: z.array(z.unknown()).max(10_000).nullish(),
    patch: z.array(z.unknown()).max(10_000).nullish(),
  })
  .refine((b) => (b.post?.length ?? 0) + (b.patch?.length ?? 0) > 0, {
    message: "A batch names at least one run in post or patch",
    path: ["post"],
  });

export const runParams = z.object({ run_id: z.string() });
export const runAttachmentParams = z.object({ run_id: z.string(), name: z.string().max(1024) });
/**
 * An attachment's presigned_url (a read's s3_urls) at `/public/download`: every part is signed
 * together, so the URL needs no API key. A part missing or not of its shape is a 422; a
 * well-formed URL whose signature does not hold is the service's 403.
 */
export const attachmentDownloadQuery = z.object({
  run_id: uuid.meta({ description: "The run's id" }),
  name: z.string().min(1).max(1024).meta({ description: "The attachment's name" }),
  workspace: uuid.meta({ description: "The run's workspace" }),
  expires: z
    .string()
    .regex(/^\d{1,12}$/)
    .meta({ description: "Unix seconds after which the URL is refused" }),
  signature: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ description: "HMAC-SHA256 (hex) of the workspace, run, name and expiry" }),
});
export type AttachmentDownload = z.infer<typeof attachmentDownloadQuery>;
export const projectParams = z.object({ project_id: z.string() });
export const feedbackParams = z.object({ feedback_id: z.string() });

/** The fields a run query can select (default: all). */
export const RUN_FIELDS = [
  "id",
  "name",
  "run_type",
  "start_time",
  "end_time",
  "status",
  "error",
  "inputs",
  "outputs",
  "events",
  "extra",
  "serialized",
  "tags",
  "trace_id",
  "dotted_order",
  "parent_run_id",
  "parent_run_ids",
  "session_id",
  "reference_example_id",
  "s3_urls",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "child_run_ids",
  "feedback_stats",
  "app_path",
  "first_token_time",
  "prompt_cost",
  "completion_cost",
  "total_cost",
  "inputs_s3_urls",
  "outputs_s3_urls",
] as const;
export type RunField = (typeof RUN_FIELDS)[number];

export const runQueryBody = z.object({
  session: z.array(uuid).max(100).nullish(),
  trace: uuid.nullish(),
  id: z.array(uuid).max(1000).nullish(),
  parent_run: uuid.nullish(),
  is_root: z.boolean().nullish(),
  /** The SDK's `execution_order: 1` means root runs. */
  execution_order: z.number().int().nullish(),
  run_type: z.string().max(64).nullish(),
  name: z.string().max(1024).nullish(),
  error: z.boolean().nullish(),
  /** As the run reads back: `error` when error is set, else `success` when ended, else `pending`. */
  status: z.enum(["success", "error", "pending"]).nullish(),
  /** Runs carrying every one of these tags. */
  tags: z.array(z.string().max(256)).max(50).nullish(),
  /** Runs whose `extra.metadata` has each key with exactly this value (a JSON scalar). */
  metadata: z
    .record(
      z.string().min(1).max(256),
      z.union([z.string().max(4096), z.number().finite(), z.boolean()]),
    )
    .refine((m) => Object.keys(m).length <= 20, { message: "At most 20 metadata keys" })
    .nullish(),
  /** Runs that started at or after this instant. */
  start_time: z.iso.datetime({ offset: true, local: true }).nullish(),
  /** Runs that started before this instant. */
  end_time: z.iso.datetime({ offset: true, local: true }).nullish(),
  select: z.array(z.string().max(64)).max(64).nullish(),
  limit: z.number().int().min(1).max(100).nullish(),
  cursor: z.string().max(512).nullish(),
  order: z.enum(["asc", "desc"]).nullish(),
  // Filter expressions are not supported: anything but null is refused with a 422.
  filter: z.null().optional(),
  trace_filter: z.null().optional(),
  tree_filter: z.null().optional(),
  query: z.null().optional(),
  reference_example: z.null().optional(),
});
export type RunQuery = z.infer<typeof runQueryBody>;

/** A run as read back (the SDK's Run): `select` narrows it. */
export const run = z.record(z.string(), z.unknown()).meta({ id: "TracingRun" });
export const runQueryResult = z.object({
  runs: z.array(run),
  cursors: z.object({ next: z.string().nullable() }),
});

export const STATS_INTERVALS = ["minute", "hour", "day"] as const;
export type StatsIntervalName = (typeof STATS_INTERVALS)[number];

/** POST /runs/stats: the run query's filters (the SDK's getRunStats body) plus the bucket size. */
export const runStatsBody = runQueryBody
  .omit({ select: true, limit: true, cursor: true, order: true })
  .extend({
    session: z.array(uuid).min(1).max(100),
    /** The buckets' size; absent: chosen from the time range (at most a few hundred buckets). */
    interval: z.enum(STATS_INTERVALS).nullish(),
  });
export type RunStatsQuery = z.infer<typeof runStatsBody>;

const statsFigures = z.object({
  run_count: z.number().int(),
  error_count: z.number().int(),
  /** error_count / run_count; null without runs. */
  error_rate: z.number().nullable(),
  /** Seconds, over the runs that have ended; null when none has. */
  latency_p50: z.number().nullable(),
  latency_p99: z.number().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});
export type StatsFigures = z.infer<typeof statsFigures>;

export const runStatsResult = statsFigures
  .extend({
    last_run_start_time: z.string().nullable(),
    interval: z.enum(STATS_INTERVALS),
    /** The range's bounds as applied (ISO, UTC): runs whose time is in [start_time, end_time). */
    start_time: z.string(),
    end_time: z.string(),
    /** Every bucket of the range, oldest first, empty ones included. */
    buckets: z.array(statsFigures.extend({ start_time: z.string() })),
  })
  .meta({ id: "TracingRunStats" });
export type RunStats = z.infer<typeof runStatsResult>;

/** GET /runs/{run_id}/tree: one page of the run's trace, depth first. */
export const runTreeQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  cursor: z.string().max(512).optional(),
});

export const treeRun = z.object({
  id: uuid,
  name: z.string(),
  run_type: z.string(),
  status: z.enum(["success", "error", "pending"]),
  error: z.string().nullable(),
  parent_run_id: uuid.nullable(),
  /** 0 for the root; null for a run not placed yet (its parent has not arrived). */
  depth: z.number().int().nullable(),
  dotted_order: z.string().nullable(),
  session_id: uuid.nullable(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  /** Milliseconds from the trace's start (fractional: microseconds). */
  start_offset_ms: z.number(),
  end_offset_ms: z.number().nullable(),
  tags: z.array(z.string()),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  total_tokens: z.number().int().nullable(),
});
export type TreeRunView = z.infer<typeof treeRun>;

export const traceTree = z
  .object({
    trace_id: uuid,
    root_run_id: uuid.nullable(),
    /** The earliest start and latest end of all the trace's runs (every page the same). */
    start_time: z.string(),
    end_time: z.string().nullable(),
    run_count: z.number().int(),
    runs: z.array(treeRun),
    /** More runs follow: pass `cursors.next` back as `cursor`. */
    truncated: z.boolean(),
    cursors: z.object({ next: z.string().nullable() }),
  })
  .meta({ id: "TracingTraceTree" });
export type TraceTree = z.infer<typeof traceTree>;

export const projectCreateBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(4096).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export const projectCreateQuery = z.object({ upsert: z.enum(["true", "false"]).optional() });
export const projectListQuery = z.object({
  name: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const project = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string().nullable(),
    extra: z.record(z.string(), z.unknown()).nullable(),
    tenant_id: uuid,
    deployment_id: uuid.nullable(),
    start_time: z.string(),
    reference_dataset_id: z.null(),
  })
  .meta({ id: "TracingProject" });
export type Project = z.infer<typeof project>;

export const feedbackCreateBody = z.object({
  id: uuid.nullish(),
  run_id: uuid.nullish(),
  trace_id: uuid.nullish(),
  session_id: uuid.nullish(),
  key: z.string().min(1).max(200),
  score: z.union([z.number().finite(), z.boolean()]).nullish(),
  value: json,
  comment: z
    .string()
    .max(64 * 1024)
    .nullish(),
  correction: json,
  feedback_source: z.record(z.string(), z.unknown()).nullish(),
});
export type FeedbackCreate = z.infer<typeof feedbackCreateBody>;

export const feedbackListQuery = z.object({
  run: z.union([uuid, z.array(uuid).max(100)]).optional(),
  key: z.union([z.string(), z.array(z.string()).max(100)]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const feedback = z
  .object({
    id: uuid,
    run_id: uuid.nullable(),
    trace_id: uuid.nullable(),
    session_id: uuid.nullable(),
    key: z.string(),
    score: z.number().nullable(),
    value: z.unknown(),
    comment: z.string().nullable(),
    correction: z.unknown(),
    feedback_source: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string(),
    modified_at: z.string(),
  })
  .meta({ id: "TracingFeedback" });
export type Feedback = z.infer<typeof feedback>;

/** What the tracing SDK reads from GET /api/v1/info to choose how it sends runs. */
export const tracingInfo = z
  .object({
    version: z.string(),
    batch_ingest_config: z.object({
      use_multipart_endpoint: z.boolean(),
      size_limit: z.number().int(),
      size_limit_bytes: z.number().int(),
      scale_up_qsize_trigger: z.number().int(),
      scale_up_nthreads_limit: z.number().int(),
      scale_down_nempty_trigger: z.number().int(),
    }),
    instance_flags: z.record(z.string(), z.boolean()),
  })
  .meta({ id: "TracingInfo" });

/** One refused part or run of a batch; the others were stored. */
export const ingestResult = z.object({ accepted: z.number().int() });

/** OTLP's ExportTraceServiceResponse in its JSON form: empty when every span was stored. */
export const otlpExportResponse = z
  .object({
    partialSuccess: z
      .object({
        rejectedSpans: z.string().meta({ description: "int64, as OTLP's JSON writes it" }),
        errorMessage: z.string(),
      })
      .optional(),
  })
  .meta({ id: "OtlpExportTraceServiceResponse" });
