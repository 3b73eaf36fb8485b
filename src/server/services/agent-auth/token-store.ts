import * as oauth from "oauth4webapi";
import type {
  OAuthProvider as ProviderRow,
  OAuthToken as TokenRow,
} from "@/generated/prisma/client";
import { decrypt, encrypt } from "@/server/crypto";
import type { Db } from "@/server/db";
import {
  describeProviderError,
  isInvalidGrant,
  providerClient,
  requestOptions,
  type ProviderClient,
} from "./oauth-client";

// Token values at rest and at the provider: encryption, expiry, refresh, revocation, labels.

/** A token this close to its expiry is treated as expired (refreshed before use). */
const EXPIRY_SKEW_MS = 30_000;

export const isExpired = (row: Pick<TokenRow, "expiresAt">, now = Date.now()) =>
  row.expiresAt !== null && row.expiresAt.getTime() <= now + EXPIRY_SKEW_MS;

export const accessTokenOf = (row: TokenRow) => decrypt(row.accessTokenEncrypted);

/** The stored columns for a token response (a refresh that omits the refresh token keeps it). */
export function tokenColumns(response: oauth.TokenEndpointResponse, requestedScopes: string[]) {
  return {
    accessTokenEncrypted: encrypt(response.access_token),
    ...(response.refresh_token ? { refreshTokenEncrypted: encrypt(response.refresh_token) } : {}),
    tokenType: response.token_type,
    scopes: response.scope ? response.scope.split(" ").filter(Boolean) : requestedScopes,
    expiresAt:
      typeof response.expires_in === "number"
        ? new Date(Date.now() + response.expires_in * 1000)
        : null,
  };
}

/** Who the account is, in words: a name from the ID token or userinfo, else the subject. */
export async function accountLabel(
  pc: ProviderClient,
  response: oauth.TokenEndpointResponse,
): Promise<string | null> {
  const named = (claims: Record<string, unknown> | undefined) => {
    const value = claims?.email ?? claims?.preferred_username ?? claims?.name;
    return typeof value === "string" && value ? value.slice(0, 200) : null;
  };
  const idClaims = oauth.getValidatedIdTokenClaims(response) as Record<string, unknown> | undefined;
  const subject = typeof idClaims?.sub === "string" ? idClaims.sub.slice(0, 200) : null;
  if (named(idClaims) || !pc.as.userinfo_endpoint || !pc.discovered)
    return named(idClaims) ?? subject;
  try {
    const answer = await oauth.userInfoRequest(
      pc.as,
      pc.client,
      response.access_token,
      requestOptions(pc.as.userinfo_endpoint),
    );
    const info = await oauth.processUserInfoResponse(
      pc.as,
      pc.client,
      oauth.skipSubjectCheck,
      answer,
    );
    return named(info as Record<string, unknown>) ?? subject ?? info.sub;
  } catch {
    return subject; // A label is a courtesy: a token without one is still a token.
  }
}

/**
 * Refreshes an expired token under a row lock (two agents asking at once refresh once). Returns
 * the fresh row, or null when the provider no longer honours the refresh token (or there is none).
 */
export async function refreshExpired(db: Db, tokenId: string): Promise<TokenRow | null> {
  return db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM oauth_tokens WHERE id = ${tokenId}::uuid FOR UPDATE`;
      const row = await tx.oAuthToken.findUniqueOrThrow({
        where: { id: tokenId },
        include: { provider: true },
      });
      if (!isExpired(row)) return row;
      if (!row.refreshTokenEncrypted) return null;
      const pc = await providerClient(row.provider);
      let response: oauth.TokenEndpointResponse;
      try {
        const answer = await oauth.refreshTokenGrantRequest(
          pc.as,
          pc.client,
          pc.auth,
          decrypt(row.refreshTokenEncrypted),
          requestOptions(row.provider.tokenUrl),
        );
        response = await oauth.processRefreshTokenResponse(pc.as, pc.client, answer);
      } catch (error) {
        if (isInvalidGrant(error)) return null;
        throw describeProviderError(error, "Refreshing the token");
      }
      return tx.oAuthToken.update({
        where: { id: row.id },
        data: tokenColumns(response, row.scopes),
      });
    },
    { timeout: 30_000 },
  );
}

/** RFC 7009 revocation of the refresh token (which ends the grant) and the access token. */
export async function revokeAtProvider(row: TokenRow, provider: ProviderRow): Promise<void> {
  const pc = await providerClient(provider);
  if (!pc.as.revocation_endpoint) return;
  const tokens: [string, string][] = [["access_token", decrypt(row.accessTokenEncrypted)]];
  if (row.refreshTokenEncrypted)
    tokens.unshift(["refresh_token", decrypt(row.refreshTokenEncrypted)]);
  for (const [hint, value] of tokens) {
    try {
      const answer = await oauth.revocationRequest(pc.as, pc.client, pc.auth, value, {
        ...requestOptions(pc.as.revocation_endpoint),
        additionalParameters: { token_type_hint: hint },
      });
      await oauth.processRevocationResponse(answer);
    } catch (error) {
      throw describeProviderError(error, "Revoking the token at the provider");
    }
  }
}
