import { z } from "zod";
import { uuid } from "@/schemas/common";
import {
  createDeploymentBody,
  deployment,
  deploymentName,
  patchDeploymentBody,
} from "@/schemas/deployments";
import { deploymentListView, deploymentListViewQuery } from "@/schemas/deployment-list-view";
import { template } from "@/schemas/templates";
import { uploadUrl } from "@/schemas/uploads";
import { AppError } from "@/server/errors";
import { NO_ORIGIN } from "@/server/public-origin";
import { createDeployment } from "@/server/services/deployments/create";
import { bulkDeleteDeployments, deleteDeployment } from "@/server/services/deployments/delete";
import { listDeploymentsView } from "@/server/services/deployments/list-view";
import { isDeploymentNameAvailable } from "@/server/services/deployments/name-available";
import { patchDeployment } from "@/server/services/deployments/patch";
import { getDeployment } from "@/server/services/deployments/read";
import { listTemplates } from "@/server/services/templates";
import { createUploadUrl } from "@/server/services/uploads";
import { createRouter, workspaceProcedure } from "../trpc";

const versionedDeployment = z.object({ deployment, etag: z.string() });

export const deploymentsRouter = createRouter({
  /** The dashboard's list: the contract's filters plus sorting, "failed", revisions and a total. */
  list: workspaceProcedure
    .input(deploymentListViewQuery)
    .output(deploymentListView)
    .query(({ ctx, input }) => listDeploymentsView(ctx.db, ctx.actor, input)),
  get: workspaceProcedure
    .input(z.object({ id: uuid }))
    .output(versionedDeployment)
    .query(({ ctx, input }) => getDeployment(ctx.db, ctx.actor, input.id)),
  create: workspaceProcedure
    .input(createDeploymentBody)
    .output(deployment)
    .mutation(({ ctx, input, signal }) => createDeployment(ctx.db, ctx.actor, input, signal)),
  patch: workspaceProcedure
    .input(z.object({ id: uuid, ifMatch: z.string().optional(), patch: patchDeploymentBody }))
    .output(versionedDeployment)
    .mutation(({ ctx, input }) =>
      patchDeployment(ctx.db, ctx.actor, input.id, input.patch, { ifMatch: input.ifMatch }),
    ),
  delete: workspaceProcedure
    .input(z.object({ id: uuid }))
    .mutation(({ ctx, input }) => deleteDeployment(ctx.db, ctx.actor, input.id)),
  bulkDelete: workspaceProcedure
    .input(z.object({ ids: z.array(uuid).min(1).max(100) }))
    .mutation(({ ctx, input }) => bulkDeleteDeployments(ctx.db, ctx.actor, input.ids)),
  /** A signed URL the browser PUTs a source archive to, as the deploy client does over REST. */
  uploadUrl: workspaceProcedure
    .input(z.object({ id: uuid }))
    .output(uploadUrl)
    .mutation(({ ctx, input }) => {
      if (!ctx.origin) throw new AppError("bad_request", NO_ORIGIN);
      return createUploadUrl(ctx.db, ctx.actor, input.id, ctx.origin);
    }),
  templates: workspaceProcedure.output(z.array(template)).query(() => listTemplates()),
  /** For the import wizard's live check; any DNS label is a valid question. */
  nameAvailable: workspaceProcedure
    .input(z.object({ name: deploymentName }))
    .output(z.object({ available: z.boolean() }))
    .query(async ({ ctx, input }) => ({
      available: await isDeploymentNameAvailable(ctx.db, ctx.actor, input.name),
    })),
});
