import { z } from "zod";
import {
  codehostInstallation,
  codehostIntegration,
  createCodehostIntegrationBody,
  repository,
} from "@/schemas/codehost-integrations";
import { uuid } from "@/schemas/common";
import * as integrations from "@/server/services/codehost-integrations";
import { listIntegrationRepositories } from "@/server/services/codehost-repos";
import { createRouter, orgAdminProcedure, workspaceProcedure } from "../trpc";

export const codehostIntegrationsRouter = createRouter({
  list: workspaceProcedure
    .output(z.array(codehostInstallation))
    .query(({ ctx }) => integrations.listCodehostInstallations(ctx.db, ctx.actor)),
  create: orgAdminProcedure
    .input(createCodehostIntegrationBody)
    .output(codehostIntegration)
    .mutation(({ ctx, input }) => integrations.createCodehostIntegration(ctx.db, ctx.actor, input)),
  listRepositories: workspaceProcedure
    .input(z.object({ integrationId: uuid }))
    .output(z.array(repository))
    .query(({ ctx, input, signal }) =>
      listIntegrationRepositories(ctx.db, ctx.actor, input.integrationId, signal),
    ),
});
