import { z } from "zod";
import {
  createOAuthProviderBody,
  oauthProvider,
  updateOAuthProviderBody,
} from "@/schemas/oauth-providers";
import * as providers from "@/server/services/oauth-providers";
import { createRouter, orgAdminProcedure, workspaceProcedure } from "../trpc";

const byProviderId = z.object({ providerId: z.string().min(1).max(256) });

export const oauthProvidersRouter = createRouter({
  list: workspaceProcedure
    .output(z.array(oauthProvider))
    .query(({ ctx }) => providers.listOAuthProviders(ctx.db, ctx.actor)),
  get: workspaceProcedure
    .input(byProviderId)
    .output(oauthProvider)
    .query(({ ctx, input }) => providers.getOAuthProvider(ctx.db, ctx.actor, input.providerId)),
  create: orgAdminProcedure
    .input(createOAuthProviderBody)
    .output(oauthProvider)
    .mutation(({ ctx, input }) => providers.createOAuthProvider(ctx.db, ctx.actor, input)),
  update: orgAdminProcedure
    .input(byProviderId.extend({ patch: updateOAuthProviderBody }))
    .output(oauthProvider)
    .mutation(({ ctx, input }) =>
      providers.updateOAuthProvider(ctx.db, ctx.actor, input.providerId, input.patch),
    ),
  delete: orgAdminProcedure
    .input(byProviderId)
    .mutation(({ ctx, input }) =>
      providers.deleteOAuthProvider(ctx.db, ctx.actor, input.providerId),
    ),
});
