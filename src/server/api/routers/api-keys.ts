import { z } from "zod";
import { apiKey, apiKeyIdInput, createApiKeyInput, createdApiKey } from "@/schemas/api-keys";
import * as apiKeys from "@/server/services/api-keys";
import { createRouter, workspaceProcedure } from "../trpc";

export const apiKeysRouter = createRouter({
  list: workspaceProcedure
    .output(z.array(apiKey))
    .query(({ ctx }) => apiKeys.listApiKeys(ctx.db, ctx.actor)),
  create: workspaceProcedure
    .input(createApiKeyInput)
    .output(createdApiKey)
    .mutation(({ ctx, input }) => apiKeys.createApiKey(ctx.db, ctx.actor, input)),
  revoke: workspaceProcedure
    .input(apiKeyIdInput)
    .output(apiKey)
    .mutation(({ ctx, input }) => apiKeys.revokeApiKey(ctx.db, ctx.actor, input.id)),
});
