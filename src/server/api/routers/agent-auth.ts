import { z } from "zod";
import { agentConnection, authenticateResult, oauthToken } from "@/schemas/agent-auth";
import { uuid } from "@/schemas/common";
import { AppError } from "@/server/errors";
import { NO_ORIGIN } from "@/server/public-origin";
import { authenticate } from "@/server/services/agent-auth/authenticate";
import * as connections from "@/server/services/agent-auth/connections";
import * as tokens from "@/server/services/agent-auth/tokens";
import { createRouter, workspaceProcedure } from "../trpc";

// The dashboard's door to agent authorization: the signed-in user's own tokens and the
// connections of a deployment. Same services as /v2/auth.

const providerRef = z.object({ providerId: z.string().min(1).max(256) });

export const agentAuthRouter = createRouter({
  tokens: workspaceProcedure
    .input(providerRef.partial())
    .output(z.array(oauthToken))
    .query(({ ctx, input }) =>
      tokens.listTokens(ctx.db, ctx.actor, { provider_id: input.providerId }),
    ),
  /** Starts a flow for the signed-in user; the browser then goes to the returned url. */
  connect: workspaceProcedure
    .input(providerRef.extend({ scopes: z.array(z.string().min(1).max(256)).max(100) }))
    .output(authenticateResult)
    .mutation(({ ctx, input }) => {
      if (!ctx.origin) throw new AppError("bad_request", NO_ORIGIN);
      return authenticate(
        ctx.db,
        ctx.actor,
        { provider: input.providerId, scopes: input.scopes, force_new: true, is_default: false },
        ctx.origin,
      );
    }),
  setDefault: workspaceProcedure
    .input(z.object({ tokenId: uuid }))
    .output(oauthToken)
    .mutation(({ ctx, input }) =>
      tokens.updateTokenMetadata(ctx.db, ctx.actor, input.tokenId, { is_default: true }),
    ),
  disconnect: workspaceProcedure
    .input(z.object({ tokenId: uuid }))
    .mutation(({ ctx, input }) => tokens.deleteToken(ctx.db, ctx.actor, input.tokenId)),
  connections: workspaceProcedure
    .input(z.object({ deploymentId: uuid }))
    .output(z.array(agentConnection))
    .query(({ ctx, input }) => connections.listConnections(ctx.db, ctx.actor, input.deploymentId)),
  connectAgent: workspaceProcedure
    .input(z.object({ deploymentId: uuid, tokenId: uuid }))
    .output(agentConnection)
    .mutation(({ ctx, input }) =>
      connections.createConnection(ctx.db, ctx.actor, input.deploymentId, input.tokenId),
    ),
  disconnectAgent: workspaceProcedure
    .input(z.object({ deploymentId: uuid, connectionId: uuid }))
    .mutation(({ ctx, input }) =>
      connections.deleteConnections(ctx.db, ctx.actor, input.deploymentId, input.connectionId),
    ),
});
