import { z } from "zod";
import { feedback, runStatsResult, STATS_INTERVALS } from "./tracing";

// The dashboard's door to tracing (tRPC `tracing.*`): projects with their recent activity, a
// project's runs with filters and a cursor, a trace's runs for the waterfall, stats, feedback.

const uuid = z.uuid();

export const RUN_STATUSES = ["success", "error", "pending"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A project in the workspace's list: its deployment (or none: detached) and last day. */
export const projectOverview = z.object({
  id: uuid,
  name: z.string(),
  deployment: z.object({ id: uuid, name: z.string() }).nullable(),
  /** Root runs (traces) that started in the last 24 hours, and how many of them failed. */
  traces_24h: z.number().int(),
  errors_24h: z.number().int(),
  /** The newest run's time (any age retention keeps), or null. */
  last_run_time: z.string().nullable(),
});
export type ProjectOverview = z.infer<typeof projectOverview>;

export const projectOverviewList = z.object({
  projects: z.array(projectOverview),
  /** More projects than the list shows (it shows the newest). */
  truncated: z.boolean(),
});

export const projectIdInput = z.object({ id: uuid });
export const deploymentProjectInput = z.object({ deploymentId: uuid });
export const projectRef = z.object({ id: uuid, name: z.string(), deployment_id: uuid.nullable() });

export const listRunsInput = z.object({
  projectId: uuid,
  /** A part of the run's name, any case. */
  search: z.string().trim().max(200).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  runType: z.string().max(64).optional(),
  /** Only runs without a parent: one row per trace (the default). */
  rootOnly: z.boolean().default(true),
  /** Runs that started at or after / before these instants (ISO). */
  startTime: z.iso.datetime({ offset: true }).optional(),
  endTime: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(512).nullish(),
  limit: z.number().int().min(1).max(100).default(50),
});
export type ListRunsInput = z.infer<typeof listRunsInput>;

/** A run in a list or a waterfall: no payloads (the detail has them). */
export const runSummary = z.object({
  id: uuid,
  name: z.string(),
  run_type: z.string(),
  status: z.enum(RUN_STATUSES),
  start_time: z.string(),
  end_time: z.string().nullable(),
  /** Seconds from start to end; null while pending. */
  latency: z.number().nullable(),
  total_tokens: z.number().nullable(),
  trace_id: uuid,
  parent_run_id: uuid.nullable(),
  /** The error's first line, shortened. */
  error_preview: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummary>;

export const runPage = z.object({ runs: z.array(runSummary), next: z.string().nullable() });

export const runIdInput = z.object({ id: uuid });

/** The SDK's Run (contract 15.4), as GET /runs/{id} answers it. */
export const runDetail = z.record(z.string(), z.unknown());

/**
 * A trace for the waterfall, a page of the REST tree (schemas/tracing.ts `traceTree`) at a time:
 * `cursor` is the previous page's `cursors.next`.
 */
export const traceRunsInput = z.object({ traceId: uuid, cursor: z.string().max(512).nullish() });

export const projectStatsInput = z.object({
  projectId: uuid,
  startTime: z.iso.datetime({ offset: true }),
  endTime: z.iso.datetime({ offset: true }).optional(),
  interval: z.enum(STATS_INTERVALS).optional(),
  rootOnly: z.boolean().default(true),
});
export const projectStats = runStatsResult;

export const runFeedback = z.array(feedback);

/** The key dashboard feedback is recorded under unless one is given (the SDK's examples' key). */
export const DEFAULT_FEEDBACK_KEY = "user_score";

/** Feedback given on a run from the dashboard: a score (thumbs are 1 and 0), a comment, or both. */
export const createRunFeedbackInput = z
  .object({
    runId: uuid,
    key: z.string().trim().min(1).max(200).default(DEFAULT_FEEDBACK_KEY),
    score: z.number().finite().nullish(),
    comment: z
      .string()
      .trim()
      .max(64 * 1024)
      .nullish(),
  })
  .refine((f) => (f.score ?? null) !== null || !!f.comment, {
    message: "Give a score or a comment",
    path: ["score"],
  });
export type CreateRunFeedbackInput = z.infer<typeof createRunFeedbackInput>;
