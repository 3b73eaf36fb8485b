import type {
  OAuthProvider as ProviderRow,
  OAuthToken as TokenRow,
} from "@/generated/prisma/client";
import type { OAuthTokenView } from "@/schemas/agent-auth";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { AppError, forbidden, notFound } from "@/server/errors";

// What every agent-auth operation starts from: the provider, the end user, the caller's rights.

export async function findProviderRow(
  db: DbClient,
  actor: Actor,
  providerId: string,
): Promise<ProviderRow> {
  const row = await db.oAuthProvider.findUnique({
    where: { organizationId_providerId: { organizationId: actor.organizationId, providerId } },
  });
  if (!row) throw notFound(`OAuth provider ${providerId} not found.`);
  return row;
}

/**
 * The end user a token belongs to: a session is its own user; an API-key caller (an agent) names
 * the person it acts for with `user_id`.
 */
export function endUser(actor: Actor, userId: string | null | undefined): string {
  if (actor.kind === "user") {
    if (userId && userId !== actor.userId)
      throw forbidden("A dashboard session acts only for its own user; omit user_id.");
    return actor.userId!;
  }
  if (!userId)
    throw new AppError("validation", "user_id is required when calling with an API key", [
      { loc: ["body", "user_id"], msg: "Field required for API-key callers", type: "missing" },
    ]);
  return userId;
}

/** The same rule for query parameters (token listings). */
export function endUserFromQuery(actor: Actor, userId: string | undefined): string {
  if (actor.kind === "user") return endUser(actor, userId);
  if (!userId)
    throw new AppError("validation", "user_id is required when calling with an API key", [
      { loc: ["query", "user_id"], msg: "Field required for API-key callers", type: "missing" },
    ]);
  return userId;
}

/** Agents obtain and change tokens with an editor key; a user manages their own at any role. */
export function requireTokenWriter(actor: Actor): void {
  if (actor.kind === "api_key") requireRole(actor, "editor");
}

/** A token of the caller's workspace that the caller may act on (a session: only its own). */
export async function findTokenRow(
  db: DbClient,
  actor: Actor,
  tokenId: string,
): Promise<TokenRow & { provider: ProviderRow }> {
  const row = await db.oAuthToken.findFirst({
    where: {
      id: tokenId,
      workspaceId: actor.workspaceId,
      ...(actor.kind === "user" ? { userId: actor.userId! } : {}),
    },
    include: { provider: true },
  });
  if (!row) throw notFound(`OAuth token ${tokenId} not found.`);
  return row;
}

export const toTokenView = (row: TokenRow & { provider: ProviderRow }): OAuthTokenView => ({
  id: row.id,
  provider_id: row.provider.providerId,
  user_id: row.userId,
  provider_account_label: row.providerAccountLabel,
  scopes: row.scopes,
  expires_at: row.expiresAt?.toISOString() ?? null,
  is_default: row.isDefault,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
