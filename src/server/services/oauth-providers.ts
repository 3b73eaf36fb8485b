import type { OAuthProvider as ProviderRow } from "@/generated/prisma/client";
import type {
  CreateOAuthProviderInput,
  OAuthProvider,
  TokenEndpointAuthMethod,
  UpdateOAuthProviderInput,
} from "@/schemas/oauth-providers";
import { requireOrgRole, type Actor } from "@/server/auth/actor";
import { encrypt } from "@/server/crypto";
import type { Db } from "@/server/db";
import { badRequest, conflict, isUniqueViolation, notFound } from "@/server/errors";
import { refuseLiteralAddress } from "@/server/outbound/creation-check";
import { recordAudit } from "./audit/record";

/** URLs Hangar itself calls (token exchange, MCP discovery): a refused literal address is a 422. */
function refuseServerSideUrls(input: { token_url?: string; mcp_server_url?: string | null }) {
  if (input.token_url) refuseLiteralAddress(input.token_url, ["body", "token_url"]);
  if (input.mcp_server_url) refuseLiteralAddress(input.mcp_server_url, ["body", "mcp_server_url"]);
}

export const toProvider = (row: ProviderRow): OAuthProvider => ({
  id: row.id,
  organization_id: row.organizationId,
  provider_id: row.providerId,
  name: row.name,
  client_id: row.clientId,
  auth_url: row.authUrl,
  token_url: row.tokenUrl,
  uses_pkce: row.usesPkce,
  // Contract 7: S256 is the default, also when PKCE is off (the method PKCE would use).
  code_challenge_method: (row.codeChallengeMethod ??
    "S256") as OAuthProvider["code_challenge_method"],
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  provider_type: row.providerType as OAuthProvider["provider_type"],
  mcp_server_url: row.mcpServerUrl,
  token_endpoint_auth_method: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
  is_dynamic_client: row.isDynamicClient,
});

/**
 * The stored (encrypted) secret a provider ends up with, enforcing contract 7: `none` is a public
 * client (PKCE, no secret); the other methods need a secret. `sent` null asks to remove it.
 */
function resolveSecret(
  method: TokenEndpointAuthMethod,
  usesPkce: boolean,
  sent: string | null | undefined,
  stored: string | null,
): string | null {
  if (method === "none") {
    if (sent) {
      throw badRequest(
        "client_secret must not be sent when token_endpoint_auth_method is none (a public client has no secret).",
      );
    }
    if (!usesPkce) {
      throw badRequest(
        "token_endpoint_auth_method none is a public client: uses_pkce must be true.",
      );
    }
    return null;
  }
  if (sent) return encrypt(sent);
  if (sent === null && stored) {
    throw badRequest(
      `client_secret cannot be removed while token_endpoint_auth_method is ${method}.`,
    );
  }
  if (sent === undefined && stored) return stored;
  throw badRequest(`client_secret is required when token_endpoint_auth_method is ${method}.`);
}

// A code challenge method means nothing without PKCE, so it is stored and returned as null then.
const challengeMethod = (usesPkce: boolean, ...choices: (string | null | undefined)[]) =>
  usesPkce ? (choices.find((c) => c) ?? "S256") : null;

export async function listOAuthProviders(db: Db, actor: Actor): Promise<OAuthProvider[]> {
  const rows = await db.oAuthProvider.findMany({
    where: { organizationId: actor.organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toProvider);
}

async function findProvider(db: Db, actor: Actor, providerId: string): Promise<ProviderRow> {
  const row = await db.oAuthProvider.findUnique({
    where: {
      organizationId_providerId: { organizationId: actor.organizationId, providerId },
    },
  });
  if (!row) throw notFound(`OAuth provider ${providerId} not found.`);
  return row;
}

export async function getOAuthProvider(
  db: Db,
  actor: Actor,
  providerId: string,
): Promise<OAuthProvider> {
  return toProvider(await findProvider(db, actor, providerId));
}

export async function createOAuthProvider(
  db: Db,
  actor: Actor,
  input: CreateOAuthProviderInput,
): Promise<OAuthProvider> {
  requireOrgRole(actor, "admin");
  refuseServerSideUrls(input);
  const method = input.token_endpoint_auth_method;
  const secret = resolveSecret(method, input.uses_pkce, input.client_secret, null);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.oAuthProvider.create({
        data: {
          organizationId: actor.organizationId,
          providerId: input.provider_id,
          name: input.name,
          clientId: input.client_id,
          clientSecretEncrypted: secret,
          authUrl: input.auth_url,
          tokenUrl: input.token_url,
          usesPkce: input.uses_pkce,
          codeChallengeMethod: challengeMethod(input.uses_pkce, input.code_challenge_method),
          providerType: input.provider_type ?? null,
          mcpServerUrl: input.mcp_server_url ?? null,
          tokenEndpointAuthMethod: method,
          isDynamicClient: input.is_dynamic_client,
        },
      });
      await recordAudit(tx, actor, {
        action: "oauth_provider.create",
        targetType: "oauth_provider",
        targetId: row.id,
        data: { provider_id: row.providerId, name: row.name, has_client_secret: secret !== null },
      });
      return toProvider(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`OAuth provider "${input.provider_id}" already exists.`);
    throw error;
  }
}

export async function updateOAuthProvider(
  db: Db,
  actor: Actor,
  providerId: string,
  input: UpdateOAuthProviderInput,
): Promise<OAuthProvider> {
  requireOrgRole(actor, "admin");
  const row = await findProvider(db, actor, providerId);
  refuseServerSideUrls(input);
  if (input.provider_id !== undefined && input.provider_id !== row.providerId) {
    throw badRequest("provider_id cannot be changed; create a new provider instead.");
  }
  const method = input.token_endpoint_auth_method ?? row.tokenEndpointAuthMethod;
  const usesPkce = input.uses_pkce ?? row.usesPkce;
  const secret = resolveSecret(
    method as TokenEndpointAuthMethod,
    usesPkce,
    input.client_secret,
    row.clientSecretEncrypted,
  );
  const changed = Object.keys(input).filter(
    (k) => k !== "provider_id" && input[k as keyof typeof input] !== undefined,
  );
  return db.$transaction(async (tx) => {
    const updated = await tx.oAuthProvider.update({
      where: { id: row.id },
      data: {
        name: input.name,
        clientId: input.client_id,
        clientSecretEncrypted: secret,
        authUrl: input.auth_url,
        tokenUrl: input.token_url,
        usesPkce,
        codeChallengeMethod: challengeMethod(
          usesPkce,
          input.code_challenge_method,
          row.codeChallengeMethod,
        ),
        providerType: input.provider_type,
        mcpServerUrl: input.mcp_server_url,
        tokenEndpointAuthMethod: method,
        isDynamicClient: input.is_dynamic_client,
      },
    });
    // Field names only: the audit log never holds the secret (or any value of it).
    await recordAudit(tx, actor, {
      action: "oauth_provider.update",
      targetType: "oauth_provider",
      targetId: row.id,
      data: { provider_id: row.providerId, changed },
    });
    return toProvider(updated);
  });
}

export async function deleteOAuthProvider(db: Db, actor: Actor, providerId: string): Promise<void> {
  requireOrgRole(actor, "admin");
  const row = await findProvider(db, actor, providerId);
  await db.$transaction(async (tx) => {
    await tx.oAuthProvider.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "oauth_provider.delete",
      targetType: "oauth_provider",
      targetId: row.id,
      data: { provider_id: row.providerId, name: row.name },
    });
  });
}
