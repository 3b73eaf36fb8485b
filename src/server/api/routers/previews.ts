import { z } from "zod";
import { uuid } from "@/schemas/common";
import { deployment } from "@/schemas/deployments";
import { approvePreviewBody } from "@/schemas/previews";
import { approvePreview } from "@/server/services/previews/approve";
import { createRouter, workspaceProcedure } from "../trpc";

export const previewsRouter = createRouter({
  /** A fork preview's head commit, approved to run with the preview's secrets (contract 5.6). */
  approve: workspaceProcedure
    .input(approvePreviewBody.extend({ deploymentId: uuid }))
    .output(z.object({ deployment, etag: z.string() }))
    .mutation(({ ctx, input: { deploymentId, ...body } }) =>
      approvePreview(ctx.db, ctx.actor, deploymentId, body),
    ),
});
