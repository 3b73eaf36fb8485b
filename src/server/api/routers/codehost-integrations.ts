import { z } from "zod";
import {
  checkCodehostSourceInput,
  codehostInstallation,
  codehostIntegration,
  codehostIntegrationDetail,
  connectionCheck,
  createCodehostIntegrationBody,
  repository,
  rotateCodehostTokenInput,
  updateCodehostIntegrationInput,
  webhookSecret,
} from "@/schemas/codehost-integrations";
import { uuid } from "@/schemas/common";
import * as integrations from "@/server/services/codehost-integrations";
import * as checks from "@/server/services/codehost-integration-checks";
import * as edits from "@/server/services/codehost-integration-edits";
import { listIntegrationRepositories } from "@/server/services/codehost-repos";
import { createRouter, orgAdminProcedure, workspaceProcedure } from "../trpc";

const byId = z.object({ integrationId: uuid });

export const codehostIntegrationsRouter = createRouter({
  list: workspaceProcedure
    .output(z.array(codehostInstallation))
    .query(({ ctx }) => integrations.listCodehostInstallations(ctx.db, ctx.actor)),
  details: workspaceProcedure
    .output(z.array(codehostIntegrationDetail))
    .query(({ ctx }) => edits.listCodehostIntegrationDetails(ctx.db, ctx.actor)),
  create: orgAdminProcedure
    .input(createCodehostIntegrationBody)
    .output(codehostIntegration)
    .mutation(({ ctx, input }) => integrations.createCodehostIntegration(ctx.db, ctx.actor, input)),
  update: orgAdminProcedure
    .input(updateCodehostIntegrationInput)
    .mutation(({ ctx, input }) => edits.updateCodehostIntegration(ctx.db, ctx.actor, input)),
  rotateToken: orgAdminProcedure
    .input(rotateCodehostTokenInput)
    .mutation(({ ctx, input }) =>
      edits.rotateCodehostToken(ctx.db, ctx.actor, input.integration_id, input.token),
    ),
  regenerateWebhookSecret: orgAdminProcedure
    .input(byId)
    .output(webhookSecret)
    .mutation(({ ctx, input }) =>
      edits.regenerateWebhookSecret(ctx.db, ctx.actor, input.integrationId),
    ),
  test: orgAdminProcedure
    .input(byId)
    .output(connectionCheck)
    .mutation(({ ctx, input }) =>
      checks.testCodehostIntegration(ctx.db, ctx.actor, input.integrationId),
    ),
  delete: orgAdminProcedure
    .input(byId)
    .mutation(({ ctx, input }) =>
      integrations.deleteCodehostIntegration(ctx.db, ctx.actor, input.integrationId),
    ),
  checkSource: workspaceProcedure
    .input(checkCodehostSourceInput)
    .mutation(({ ctx, input }) => checks.checkCodehostSource(ctx.db, ctx.actor, input)),
  listRepositories: workspaceProcedure
    .input(z.object({ integrationId: uuid }))
    .output(z.array(repository))
    .query(({ ctx, input, signal }) =>
      listIntegrationRepositories(ctx.db, ctx.actor, input.integrationId, signal),
    ),
});
