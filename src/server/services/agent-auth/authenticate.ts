import type {
  OAuthProvider as ProviderRow,
  OAuthToken as TokenRow,
} from "@/generated/prisma/client";
import type { AuthenticateInput, AuthenticateResult } from "@/schemas/agent-auth";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { notFound } from "@/server/errors";
import { endUser, findProviderRow, requireTokenWriter } from "./context";
import { startFlow } from "./start-flow";
import { accessTokenOf, isExpired, refreshExpired } from "./token-store";

// POST /v2/auth/authenticate: a stored token when one covers the scopes (refreshed first when
// expired), else a new authorization flow for the user to complete in a browser.

function metadata(provider: ProviderRow, token: TokenRow | null, scopes: string[]) {
  return {
    token_id: token?.id ?? null,
    provider_id: provider.providerId,
    provider_account_label: token?.providerAccountLabel ?? null,
    scopes: token?.scopes ?? scopes,
    expires_at: token?.expiresAt?.toISOString() ?? null,
    is_default: token?.isDefault ?? null,
  };
}

const covers = (token: TokenRow, scopes: string[]) => scopes.every((s) => token.scopes.includes(s));

async function storedToken(
  db: Db,
  actor: Actor,
  provider: ProviderRow,
  userId: string,
  input: AuthenticateInput,
): Promise<TokenRow | null> {
  const owner = { workspaceId: actor.workspaceId, providerRowId: provider.id, userId };
  if (input.token_id) {
    const token = await db.oAuthToken.findFirst({ where: { ...owner, id: input.token_id } });
    if (!token) throw notFound(`OAuth token ${input.token_id} not found.`);
    return covers(token, input.scopes) ? token : null;
  }
  const tokens = await db.oAuthToken.findMany({
    where: owner,
    orderBy: [{ isDefault: "desc" }, { updatedAt: "desc" }],
  });
  return tokens.find((t) => covers(t, input.scopes)) ?? null;
}

export async function authenticate(
  db: Db,
  actor: Actor,
  input: AuthenticateInput,
  origin: string,
): Promise<AuthenticateResult> {
  requireTokenWriter(actor);
  const provider = await findProviderRow(db, actor, input.provider);
  const userId = endUser(actor, input.user_id);
  const agentId = input.agent_id ?? null;
  if (agentId) {
    const agent = await db.deployment.findFirst({
      where: { id: agentId, workspaceId: actor.workspaceId },
    });
    if (!agent) throw notFound(`Deployment ID ${agentId} not found.`);
  }
  const request = { userId, agentId, scopes: input.scopes, isDefault: input.is_default };
  const result = (status: AuthenticateResult["status"], rest: Partial<AuthenticateResult>) => ({
    status,
    url: null,
    auth_id: null,
    token: null,
    user_id: userId,
    metadata: metadata(provider, null, input.scopes),
    ...rest,
  });

  let token = input.force_new ? null : await storedToken(db, actor, provider, userId, input);
  if (!token) {
    const flow = await startFlow(db, actor, provider, request, origin);
    return result("pending", { url: flow.url, auth_id: flow.authId });
  }
  if (isExpired(token)) {
    const refreshed = await refreshExpired(db, token.id);
    if (!refreshed) {
      const flow = await startFlow(
        db,
        actor,
        provider,
        { ...request, replacesTokenId: token.id },
        origin,
      );
      return result("token_expired", {
        url: flow.url,
        auth_id: flow.authId,
        metadata: metadata(provider, token, input.scopes),
      });
    }
    token = refreshed;
  }
  if (agentId) {
    const connection = await db.agentConnection.findUnique({
      where: { deploymentId_tokenId: { deploymentId: agentId, tokenId: token.id } },
    });
    if (!connection)
      return result("connection_required", { metadata: metadata(provider, token, input.scopes) });
  }
  return result("completed", {
    token: accessTokenOf(token),
    metadata: metadata(provider, token, input.scopes),
  });
}
