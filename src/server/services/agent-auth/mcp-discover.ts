import * as oauth from "oauth4webapi";
import type { McpDiscoverInput } from "@/schemas/agent-auth";
import type { OAuthProvider } from "@/schemas/oauth-providers";
import { requireOrgRole, type Actor } from "@/server/auth/actor";
import { encrypt } from "@/server/crypto";
import type { Db } from "@/server/db";
import { AppError, badRequest, conflict, isUniqueViolation } from "@/server/errors";
import { refuseLiteralAddress } from "@/server/outbound/creation-check";
import { requireSecureUrl } from "@/server/url-rule";
import { recordAudit } from "../audit/record";
import { toProvider } from "../oauth-providers";
import { checkMetadataUrls, describeProviderError, requestOptions } from "./oauth-client";
import { callbackUrl } from "./start-flow";

// POST /v2/auth/providers/mcp-discover: an MCP server's OAuth provider found the standard way —
// its protected-resource metadata (RFC 9728) names the authorization server, whose metadata
// (RFC 8414, or OpenID discovery) gives the endpoints, and dynamic registration (RFC 7591) the client.

async function protectedResource(mcpServerUrl: string): Promise<string> {
  const resource = new URL(mcpServerUrl);
  let metadata: oauth.ResourceServer;
  try {
    const answer = await oauth.resourceDiscoveryRequest(resource, requestOptions(mcpServerUrl));
    metadata = await oauth.processResourceDiscoveryResponse(resource, answer);
  } catch (error) {
    throw describeProviderError(error, "Protected-resource metadata (RFC 9728)");
  }
  const servers: unknown = metadata.authorization_servers ?? [];
  const field = "Protected-resource metadata (RFC 9728): authorization_servers";
  if (!Array.isArray(servers)) throw new AppError("bad_gateway", `${field} is not a list.`);
  if (servers.length === 0)
    throw badRequest("Protected-resource metadata (RFC 9728): it names no authorization server.");
  for (const server of servers) requireSecureUrl(server, field);
  return servers[0] as string;
}

async function authorizationServer(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  let lastError: unknown;
  for (const algorithm of ["oauth2", "oidc"] as const) {
    let as: oauth.AuthorizationServer;
    try {
      const answer = await oauth.discoveryRequest(url, { algorithm, ...requestOptions(issuer) });
      as = await oauth.processDiscoveryResponse(url, answer);
    } catch (error) {
      lastError = error;
      continue;
    }
    // Checked before anything is registered or stored.
    return checkMetadataUrls(as, "Authorization server metadata (RFC 8414)");
  }
  throw describeProviderError(lastError, "Authorization server metadata (RFC 8414)");
}

async function registerClient(as: oauth.AuthorizationServer, name: string, redirectUri: string) {
  if (!as.registration_endpoint)
    throw badRequest(
      "Dynamic client registration (RFC 7591): the authorization server offers no registration endpoint.",
    );
  try {
    const answer = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: name,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      },
      requestOptions(as.registration_endpoint),
    );
    return await oauth.processDynamicClientRegistrationResponse(answer);
  } catch (error) {
    throw describeProviderError(error, "Dynamic client registration (RFC 7591)");
  }
}

export async function discoverMcpProvider(
  db: Db,
  actor: Actor,
  input: McpDiscoverInput,
  origin: string,
): Promise<OAuthProvider> {
  requireOrgRole(actor, "admin");
  refuseLiteralAddress(input.mcp_server_url, ["body", "mcp_server_url"]);
  const taken = await db.oAuthProvider.findUnique({
    where: {
      organizationId_providerId: {
        organizationId: actor.organizationId,
        providerId: input.provider_id,
      },
    },
  });
  if (taken) throw conflict(`OAuth provider "${input.provider_id}" already exists.`);
  const issuer = await protectedResource(input.mcp_server_url);
  const as = await authorizationServer(issuer);
  if (!as.authorization_endpoint || !as.token_endpoint)
    throw badRequest(
      "Authorization server metadata (RFC 8414): it lacks an authorization or token endpoint.",
    );
  const client = await registerClient(as, input.name, callbackUrl(origin, input.provider_id));
  const method = (client.token_endpoint_auth_method as string | undefined) ?? "none";
  const secret = typeof client.client_secret === "string" ? client.client_secret : null;
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.oAuthProvider.create({
        data: {
          organizationId: actor.organizationId,
          providerId: input.provider_id,
          name: input.name,
          clientId: client.client_id,
          clientSecretEncrypted: secret ? encrypt(secret) : null,
          authUrl: as.authorization_endpoint!,
          tokenUrl: as.token_endpoint!,
          usesPkce: true,
          codeChallengeMethod: "S256",
          mcpServerUrl: input.mcp_server_url,
          tokenEndpointAuthMethod: secret ? method : "none",
          isDynamicClient: true,
          issuer: as.issuer,
        },
      });
      await recordAudit(tx, actor, {
        action: "oauth_provider.mcp_discover",
        targetType: "oauth_provider",
        targetId: row.id,
        data: {
          provider_id: row.providerId,
          issuer: as.issuer,
          mcp_server_url: input.mcp_server_url,
        },
      });
      return toProvider(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`OAuth provider "${input.provider_id}" already exists.`);
    throw error;
  }
}
