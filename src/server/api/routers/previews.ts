import { z } from "zod";
import { uuid } from "@/schemas/common";
import { deployment } from "@/schemas/deployments";
import { approvePreviewBody, previewsWebhook } from "@/schemas/previews";
import { approvePreview } from "@/server/services/previews/approve";
import { readPreviewsWebhook } from "@/server/services/previews/webhook";
import { createRouter, workspaceProcedure } from "../trpc";

export const previewsRouter = createRouter({
  /** A fork preview's head commit, approved to run with the preview's secrets (contract 5.6). */
  approve: workspaceProcedure
    .input(approvePreviewBody.extend({ deploymentId: uuid }))
    .output(z.object({ deployment, etag: z.string() }))
    .mutation(({ ctx, input: { deploymentId, ...body } }) =>
      approvePreview(ctx.db, ctx.actor, deploymentId, body),
    ),
  /** The pull-request webhook previews need: its state and last delivery (dashboard only). */
  webhook: workspaceProcedure
    .input(z.object({ deploymentId: uuid }))
    .output(previewsWebhook)
    .query(({ ctx, input }) => readPreviewsWebhook(ctx.db, ctx.actor, input.deploymentId)),
});
