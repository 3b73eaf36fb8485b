import { feedback, project, traceTree } from "@/schemas/tracing";
import {
  createRunFeedbackInput,
  deploymentProjectInput,
  listRunsInput,
  projectIdInput,
  projectOverviewList,
  projectRef,
  projectStats,
  projectStatsInput,
  runDetail,
  runFeedback,
  runIdInput,
  runPage,
  traceRunsInput,
} from "@/schemas/tracing-dashboard";
import { createRunFeedback, listFeedback } from "@/server/services/tracing/feedback";
import { readProject } from "@/server/services/tracing/projects";
import {
  deploymentProject,
  listProjectOverview,
} from "@/server/services/tracing/projects-overview";
import { listRunSummaries } from "@/server/services/tracing/run-list";
import { readRun } from "@/server/services/tracing/runs-read";
import { runStats } from "@/server/services/tracing/stats";
import { readTraceTree, TRACE_TREE_MAX_LIMIT } from "@/server/services/tracing/trace-tree";
import { createRouter, workspaceProcedure } from "../trpc";

// The dashboard's Traces views: every procedure reads (any role) but createFeedback, which the
// service lets editors and admins do (viewers: FORBIDDEN); all inside the workspace.

export const tracingRouter = createRouter({
  projects: workspaceProcedure
    .output(projectOverviewList)
    .query(({ ctx }) => listProjectOverview(ctx.db, ctx.actor)),
  project: workspaceProcedure
    .input(projectIdInput)
    .output(project)
    .query(({ ctx, input }) => readProject(ctx.db, ctx.actor, input.id)),
  deploymentProject: workspaceProcedure
    .input(deploymentProjectInput)
    .output(projectRef)
    .query(({ ctx, input }) => deploymentProject(ctx.db, ctx.actor, input.deploymentId)),
  runs: workspaceProcedure
    .input(listRunsInput)
    .output(runPage)
    .query(({ ctx, input }) => listRunSummaries(ctx.db, ctx.actor, input)),
  run: workspaceProcedure
    .input(runIdInput)
    .output(runDetail)
    .query(({ ctx, input }) => readRun(ctx.db, ctx.actor, input.id, ctx.origin)),
  traceRuns: workspaceProcedure
    .input(traceRunsInput)
    .output(traceTree)
    // The waterfall takes the largest pages, and the next one on "Load more".
    .query(({ ctx, input }) =>
      readTraceTree(ctx.db, ctx.actor, input.traceId, {
        limit: TRACE_TREE_MAX_LIMIT,
        cursor: input.cursor,
        cursorLoc: ["body", "cursor"],
      }),
    ),
  stats: workspaceProcedure
    .input(projectStatsInput)
    .output(projectStats)
    .query(({ ctx, input }) =>
      runStats(ctx.db, ctx.actor, {
        session: [input.projectId],
        start_time: input.startTime,
        end_time: input.endTime,
        interval: input.interval,
        is_root: input.rootOnly ? true : undefined,
      }),
    ),
  feedback: workspaceProcedure
    .input(runIdInput)
    .output(runFeedback)
    .query(({ ctx, input }) =>
      listFeedback(ctx.db, ctx.actor, { run: input.id, limit: 100, offset: 0 }),
    ),
  createFeedback: workspaceProcedure
    .input(createRunFeedbackInput)
    .output(feedback)
    .mutation(({ ctx, input }) => createRunFeedback(ctx.db, ctx.actor, input)),
});
