import * as oauth from "oauth4webapi";
import type { OAuthFlow as FlowRow, OAuthProvider as ProviderRow } from "@/generated/prisma/client";
import type { CallbackResult } from "@/schemas/agent-auth";
import { decrypt, sha256Hex } from "@/server/crypto";
import type { Db, DbClient } from "@/server/db";
import { badRequest } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { notifyFlowFinished } from "./flow-events";
import { describeProviderError, providerClient, requestOptions } from "./oauth-client";
import { accountLabel, tokenColumns } from "./token-store";

// The provider's redirect back: check the state (known, unused, unexpired, this provider's),
// exchange the code with the PKCE verifier, store the token, finish the flow, wake its waiters.

const STATE_REFUSED =
  "The state is unknown, already used or expired: start the authorization again.";

export interface CallbackInput {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  /** RFC 9207: the issuer that sent the browser back, when it says so. */
  iss?: string;
}

/** Takes the state, once: a replay, an expired state or another provider's state is refused. */
async function claimState(db: Db, providerId: string, state: string | undefined) {
  if (!state) throw badRequest("The callback has no state parameter.");
  const flow = await db.oAuthFlow.findUnique({
    where: { stateHash: sha256Hex(state) },
    include: { provider: true },
  });
  if (!flow || flow.provider.providerId !== providerId) throw badRequest(STATE_REFUSED);
  const claimed = await db.oAuthFlow.updateMany({
    where: { id: flow.id, stateUsedAt: null, status: "pending", expiresAt: { gt: new Date() } },
    data: { stateUsedAt: new Date() },
  });
  if (claimed.count === 0) throw badRequest(STATE_REFUSED);
  return flow;
}

async function failFlow(db: Db, flow: FlowRow, message: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.oAuthFlow.update({
      where: { id: flow.id },
      data: { status: "failed", error: message, completedAt: new Date() },
    });
    await notifyFlowFinished(tx, flow.id);
  });
}

async function exchangeCode(flow: FlowRow, provider: ProviderRow, input: CallbackInput) {
  const pc = await providerClient(provider);
  const params = new URLSearchParams({ code: input.code!, state: input.state! });
  if (input.iss) params.set("iss", input.iss);
  // A caller relaying only code and state cannot relay iss: check it only when it came.
  const as = input.iss
    ? pc.as
    : { ...pc.as, authorization_response_iss_parameter_supported: false };
  const validated = oauth.validateAuthResponse(as, pc.client, params, input.state!);
  const answer = await oauth.authorizationCodeGrantRequest(
    as,
    pc.client,
    pc.auth,
    validated,
    flow.redirectUri,
    flow.codeVerifierEncrypted ? decrypt(flow.codeVerifierEncrypted) : oauth.nopkce,
    requestOptions(provider.tokenUrl),
  );
  const response = await oauth.processAuthorizationCodeResponse(as, pc.client, answer);
  return { response, label: await accountLabel(pc, response) };
}

/** The token the flow obtained, as the default when asked or when it is the user's first. */
async function storeToken(
  tx: DbClient,
  flow: FlowRow,
  columns: ReturnType<typeof tokenColumns>,
  label: string | null,
) {
  const owner = {
    workspaceId: flow.workspaceId,
    providerRowId: flow.providerRowId,
    userId: flow.userId,
  };
  const others = await tx.oAuthToken.count({ where: owner });
  const isDefault = flow.isDefault || others === 0;
  if (isDefault) await tx.oAuthToken.updateMany({ where: owner, data: { isDefault: false } });
  const replaced = flow.replacesTokenId
    ? await tx.oAuthToken.findFirst({ where: { ...owner, id: flow.replacesTokenId } })
    : null;
  const data = { ...columns, providerAccountLabel: label, ...(isDefault ? { isDefault } : {}) };
  return replaced
    ? tx.oAuthToken.update({ where: { id: replaced.id }, data })
    : tx.oAuthToken.create({ data: { ...owner, ...data } });
}

export async function completeFlow(
  db: Db,
  providerId: string,
  input: CallbackInput,
): Promise<CallbackResult> {
  const flow = await claimState(db, providerId, input.state);
  const provider = flow.provider;
  if (input.error) {
    const words = input.error_description
      ? `${input.error}: ${input.error_description}`
      : input.error;
    await failFlow(db, flow, `The provider refused the authorization (${words}).`);
    throw badRequest(`The provider refused the authorization (${words}).`);
  }
  if (!input.code) {
    await failFlow(db, flow, "The provider sent no authorization code.");
    throw badRequest("The callback has no code parameter.");
  }
  let exchanged: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    exchanged = await exchangeCode(flow, provider, input);
  } catch (error) {
    const mapped = describeProviderError(error, "Exchanging the authorization code");
    await failFlow(db, flow, mapped.message);
    throw mapped;
  }
  const token = await db.$transaction(async (tx) => {
    const row = await storeToken(
      tx,
      flow,
      tokenColumns(exchanged.response, flow.scopes),
      exchanged.label,
    );
    if (flow.agentId) {
      const agent = await tx.deployment.findFirst({
        where: { id: flow.agentId, workspaceId: flow.workspaceId },
      });
      if (agent) {
        await tx.agentConnection.upsert({
          where: { deploymentId_tokenId: { deploymentId: agent.id, tokenId: row.id } },
          create: {
            workspaceId: flow.workspaceId,
            deploymentId: agent.id,
            tokenId: row.id,
            createdBy: flow.createdByUserId ?? flow.createdByApiKeyId,
          },
          update: {},
        });
      }
    }
    await tx.oAuthFlow.update({
      where: { id: flow.id },
      data: { status: "completed", tokenId: row.id, completedAt: new Date() },
    });
    await recordAudit(
      tx,
      {
        organizationId: provider.organizationId,
        workspaceId: flow.workspaceId,
        userId: flow.createdByUserId,
        apiKeyId: flow.createdByApiKeyId,
      },
      {
        action: "oauth_token.connect",
        targetType: "oauth_token",
        targetId: row.id,
        data: { provider_id: provider.providerId, user_id: flow.userId, scopes: row.scopes },
      },
    );
    await notifyFlowFinished(tx, flow.id);
    return row;
  });
  return {
    status: "completed",
    auth_id: flow.id,
    token_id: token.id,
    provider_id: provider.providerId,
    provider_account_label: token.providerAccountLabel,
  };
}
