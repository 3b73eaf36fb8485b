import { z } from "zod";
import { uuid } from "@/schemas/common";
import { deployment } from "@/schemas/deployments";
import { revisionLogPage, revisionLogsQuery } from "@/schemas/revision-logs";
import {
  listRevisionsQuery,
  promoteRevisionBody,
  revision,
  revisionPage,
} from "@/schemas/revisions";
import { promoteRevision } from "@/server/services/revisions/promote";
import { interruptRevision } from "@/server/services/revisions/interrupt";
import { listRevisionLogs } from "@/server/services/revisions/logs-list";
import * as revisions from "@/server/services/revisions/history";
import { createRouter, workspaceProcedure } from "../trpc";

const revisionRef = z.object({ deploymentId: uuid, revisionId: uuid });

export const revisionsRouter = createRouter({
  list: workspaceProcedure
    .input(listRevisionsQuery.extend({ deploymentId: uuid }))
    .output(revisionPage)
    .query(({ ctx, input: { deploymentId, ...query } }) =>
      revisions.listRevisions(ctx.db, ctx.actor, deploymentId, query),
    ),
  get: workspaceProcedure
    .input(revisionRef)
    .output(revision)
    .query(({ ctx, input }) =>
      revisions.getRevision(ctx.db, ctx.actor, input.deploymentId, input.revisionId),
    ),
  redeploy: workspaceProcedure
    .input(revisionRef)
    .output(z.object({ deployment, etag: z.string() }))
    .mutation(({ ctx, input }) =>
      revisions.redeployRevision(ctx.db, ctx.actor, input.deploymentId, input.revisionId),
    ),
  promote: workspaceProcedure
    .input(promoteRevisionBody.extend(revisionRef.shape))
    .output(z.object({ deployment, etag: z.string() }))
    .mutation(({ ctx, input: { deploymentId, revisionId, ...body } }) =>
      promoteRevision(ctx.db, ctx.actor, deploymentId, revisionId, body),
    ),
  interrupt: workspaceProcedure
    .input(revisionRef)
    .output(revision)
    .mutation(({ ctx, input }) =>
      interruptRevision(ctx.db, ctx.actor, input.deploymentId, input.revisionId),
    ),
  logs: workspaceProcedure
    .input(revisionLogsQuery.extend(revisionRef.shape))
    .output(revisionLogPage)
    .query(({ ctx, input: { deploymentId, revisionId, ...query } }) =>
      listRevisionLogs(ctx.db, ctx.actor, deploymentId, revisionId, query),
    ),
});
