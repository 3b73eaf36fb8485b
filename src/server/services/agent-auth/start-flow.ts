import * as oauth from "oauth4webapi";
import type { OAuthProvider as ProviderRow } from "@/generated/prisma/client";
import type { Actor } from "@/server/auth/actor";
import { encrypt, sha256Hex } from "@/server/crypto";
import type { DbClient } from "@/server/db";
import { providerAuthUrl } from "./oauth-client";

// Starting an authorization-code flow: a random single-use state (stored hashed), PKCE S256 when
// the provider uses PKCE (the verifier encrypted), and the provider's authorization URL.

export const FLOW_TTL_MS = 10 * 60_000;
/** Finished and abandoned flows are kept this long (wait answers about them), then purged. */
const FLOW_RETENTION_MS = 24 * 60 * 60_000;

export interface FlowRequest {
  userId: string;
  agentId: string | null;
  scopes: string[];
  isDefault: boolean;
  replacesTokenId?: string | null;
}

/** Where the provider sends the browser back (`origin`: publicOrigin, HANGAR_PUBLIC_URL first). */
export function callbackUrl(origin: string, providerId: string): string {
  return new URL(`/v2/auth/callback/${encodeURIComponent(providerId)}`, origin).toString();
}

export async function startFlow(
  db: DbClient,
  actor: Actor,
  provider: ProviderRow,
  request: FlowRequest,
  origin: string,
): Promise<{ authId: string; url: string }> {
  const state = oauth.generateRandomState();
  const redirectUri = callbackUrl(origin, provider.providerId);
  const url = providerAuthUrl(provider);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  if (request.scopes.length > 0) url.searchParams.set("scope", request.scopes.join(" "));
  let verifier: string | null = null;
  if (provider.usesPkce) {
    verifier = oauth.generateRandomCodeVerifier();
    const plain = provider.codeChallengeMethod === "plain";
    url.searchParams.set(
      "code_challenge",
      plain ? verifier : await oauth.calculatePKCECodeChallenge(verifier),
    );
    url.searchParams.set("code_challenge_method", plain ? "plain" : "S256");
  }
  // Refresh tokens: OpenID providers grant offline_access only after an explicit consent.
  if (request.scopes.includes("offline_access")) url.searchParams.set("prompt", "consent");
  const now = new Date();
  await db.oAuthFlow.deleteMany({
    where: {
      workspaceId: actor.workspaceId,
      createdAt: { lt: new Date(now.getTime() - FLOW_RETENTION_MS) },
    },
  });
  const flow = await db.oAuthFlow.create({
    data: {
      createdAt: now,
      workspaceId: actor.workspaceId,
      providerRowId: provider.id,
      userId: request.userId,
      agentId: request.agentId,
      scopes: request.scopes,
      stateHash: sha256Hex(state),
      codeVerifierEncrypted: verifier ? encrypt(verifier) : null,
      redirectUri,
      isDefault: request.isDefault,
      replacesTokenId: request.replacesTokenId ?? null,
      createdByUserId: actor.kind === "user" ? actor.userId : null,
      createdByApiKeyId: actor.apiKeyId,
      expiresAt: new Date(now.getTime() + FLOW_TTL_MS),
    },
  });
  return { authId: flow.id, url: url.toString() };
}
