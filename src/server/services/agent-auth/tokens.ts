import type { Prisma } from "@/generated/prisma/client";
import type { OAuthTokenView, TokenMetadataInput, TokensQuery } from "@/schemas/agent-auth";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { recordAudit } from "../audit/record";
import {
  endUserFromQuery,
  findProviderRow,
  findTokenRow,
  requireTokenWriter,
  toTokenView,
} from "./context";
import { revokeAtProvider } from "./token-store";

// Stored tokens: listed and described, never their values. Deleting revokes at the provider first.

/** A session sees its own tokens; an API key those of `user_id`, or every user's without it. */
async function tokenFilter(
  db: Db,
  actor: Actor,
  query: TokensQuery,
  requireUser: boolean,
): Promise<Prisma.OAuthTokenWhereInput> {
  const where: Prisma.OAuthTokenWhereInput = { workspaceId: actor.workspaceId };
  if (query.provider_id)
    where.providerRowId = (await findProviderRow(db, actor, query.provider_id)).id;
  if (actor.kind === "user" || requireUser || query.user_id)
    where.userId = endUserFromQuery(actor, query.user_id);
  return where;
}

export async function listTokens(
  db: Db,
  actor: Actor,
  query: TokensQuery,
): Promise<OAuthTokenView[]> {
  const rows = await db.oAuthToken.findMany({
    where: await tokenFilter(db, actor, query, false),
    include: { provider: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toTokenView);
}

export async function tokenExists(db: Db, actor: Actor, query: TokensQuery) {
  const count = await db.oAuthToken.count({ where: await tokenFilter(db, actor, query, true) });
  return { has_token: count > 0 };
}

async function revokeAndDelete(db: Db, actor: Actor, where: Prisma.OAuthTokenWhereInput) {
  const rows = await db.oAuthToken.findMany({ where, include: { provider: true } });
  for (const row of rows) {
    await revokeAtProvider(row, row.provider);
    await db.$transaction(async (tx) => {
      await tx.oAuthToken.delete({ where: { id: row.id } });
      await recordAudit(tx, actor, {
        action: "oauth_token.delete",
        targetType: "oauth_token",
        targetId: row.id,
        data: { provider_id: row.provider.providerId, user_id: row.userId },
      });
    });
  }
  return { deleted: rows.length };
}

export async function deleteToken(db: Db, actor: Actor, tokenId: string): Promise<void> {
  requireTokenWriter(actor);
  const row = await findTokenRow(db, actor, tokenId);
  await revokeAndDelete(db, actor, { id: row.id });
}

export async function deleteProviderTokens(db: Db, actor: Actor, query: TokensQuery) {
  requireTokenWriter(actor);
  return revokeAndDelete(db, actor, await tokenFilter(db, actor, query, true));
}

export async function updateTokenMetadata(
  db: Db,
  actor: Actor,
  tokenId: string,
  input: TokenMetadataInput,
): Promise<OAuthTokenView> {
  requireTokenWriter(actor);
  const row = await findTokenRow(db, actor, tokenId);
  return db.$transaction(async (tx) => {
    if (input.is_default) {
      await tx.oAuthToken.updateMany({
        where: {
          workspaceId: row.workspaceId,
          providerRowId: row.providerRowId,
          userId: row.userId,
        },
        data: { isDefault: false },
      });
    }
    const updated = await tx.oAuthToken.update({
      where: { id: row.id },
      data: { providerAccountLabel: input.provider_account_label, isDefault: input.is_default },
      include: { provider: true },
    });
    await recordAudit(tx, actor, {
      action: "oauth_token.update",
      targetType: "oauth_token",
      targetId: row.id,
      data: {
        changed: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined),
      },
    });
    return toTokenView(updated);
  });
}

const slackTokens = (actor: Actor): Prisma.OAuthTokenWhereInput => ({
  workspaceId: actor.workspaceId,
  provider: { providerType: "slack" },
});

/** Whether the workspace holds a token of a provider of type slack (any user's). */
export async function slackWorkspaceTokenExists(db: Db, actor: Actor) {
  return { has_token: (await db.oAuthToken.count({ where: slackTokens(actor) })) > 0 };
}

export async function deleteSlackWorkspaceTokens(db: Db, actor: Actor) {
  requireRole(actor, "admin");
  return revokeAndDelete(db, actor, slackTokens(actor));
}
