import * as oauth from "oauth4webapi";
import type { OAuthProvider as ProviderRow } from "@/generated/prisma/client";
import { decrypt } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { outboundFetch } from "@/server/outbound/client";
import { outboundToAppError } from "@/server/outbound/errors";
import { requireSecureUrl } from "@/server/url-rule";

// A provider as oauth4webapi sees it: the authorization server (discovered when it publishes
// metadata, else built from auth_url/token_url), the client and its token-endpoint auth method.
// Every request goes through the outbound client (address policy, deadline, size cap).

/** oauth4webapi's request options: our outbound client; http only where the contract allows it. */
export function requestOptions(url: string) {
  return {
    [oauth.customFetch]: (input: string, init: RequestInit) =>
      outboundFetch(input, {
        method: init.method,
        headers: init.headers as Headers,
        body: init.body as string | URLSearchParams | null,
        signal: init.signal,
      }),
    [oauth.allowInsecureRequests]: new URL(url).protocol === "http:",
  };
}

const METADATA_TTL_MS = 5 * 60_000;
const metadataCache = new Map<string, { at: number; as: oauth.AuthorizationServer | null }>();

/** RFC 8414 metadata, then OpenID discovery; null when the issuer publishes neither. */
export async function discoverAuthorizationServer(
  issuer: string,
): Promise<oauth.AuthorizationServer | null> {
  const cached = metadataCache.get(issuer);
  if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.as;
  const url = new URL(issuer);
  let found: oauth.AuthorizationServer | null = null;
  for (const algorithm of ["oauth2", "oidc"] as const) {
    try {
      const response = await oauth.discoveryRequest(url, { algorithm, ...requestOptions(issuer) });
      found = await oauth.processDiscoveryResponse(url, response);
      break;
    } catch {
      // Not published at this well-known path (or not reachable): try the other, then go without.
    }
  }
  // Metadata with a URL breaking the rule is a 502 (not cached), never quietly left out.
  if (found) checkMetadataUrls(found, "Authorization server metadata (RFC 8414)");
  metadataCache.set(issuer, { at: Date.now(), as: found });
  return found;
}

/** The URL fields of RFC 8414 / OpenID discovery metadata that Hangar stores, calls or hands out. */
const METADATA_URLS = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "registration_endpoint",
  "revocation_endpoint",
  "userinfo_endpoint",
] as const;

/** Every URL a provider's metadata gives goes through the URL rule: a bad one is a 502 naming it. */
export function checkMetadataUrls(
  as: oauth.AuthorizationServer,
  step: string,
): oauth.AuthorizationServer {
  for (const field of METADATA_URLS)
    if (as[field] !== undefined) requireSecureUrl(as[field], `${step}: ${field}`);
  return as;
}

export interface ProviderClient {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  /** Whether `as` came from published metadata (so an ID token's issuer can be checked). */
  discovered: boolean;
}

/** A provider's authorization URL, checked again: rows saved before the URL rule may break it. */
export function providerAuthUrl(row: ProviderRow): URL {
  return new URL(
    requireSecureUrl(
      row.authUrl,
      `OAuth provider "${row.providerId}": its auth_url`,
      "an organization admin must correct it before anyone can connect",
    ),
  );
}

/** The authorization server and client for a provider; its own URLs always win. */
export async function providerClient(row: ProviderRow): Promise<ProviderClient> {
  const issuer = row.issuer ?? providerAuthUrl(row).origin;
  const metadata = await discoverAuthorizationServer(issuer);
  const as: oauth.AuthorizationServer = {
    ...(metadata ?? { issuer }),
    authorization_endpoint: row.authUrl,
    token_endpoint: row.tokenUrl,
  };
  const client: oauth.Client = {
    client_id: row.clientId,
    token_endpoint_auth_method: row.tokenEndpointAuthMethod,
  };
  const secret = row.clientSecretEncrypted ? decrypt(row.clientSecretEncrypted) : "";
  const auth =
    row.tokenEndpointAuthMethod === "client_secret_basic"
      ? oauth.ClientSecretBasic(secret)
      : row.tokenEndpointAuthMethod === "client_secret_post"
        ? oauth.ClientSecretPost(secret)
        : oauth.None();
  return { as, client, auth, discovered: metadata !== null };
}

/** A provider's failure in words: its OAuth error, an unusable answer, or the network. */
export function describeProviderError(error: unknown, step: string): AppError {
  if (
    error instanceof oauth.ResponseBodyError ||
    error instanceof oauth.AuthorizationResponseError
  ) {
    const detail = error.error_description ? `: ${error.error_description}` : "";
    return new AppError("bad_gateway", `${step}: the provider answered ${error.error}${detail}`);
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const params = error.cause[0]?.parameters;
    const detail = params?.error_description ? `: ${params.error_description}` : "";
    return new AppError(
      "bad_gateway",
      `${step}: the provider answered ${params?.error ?? `HTTP ${error.status}`}${detail}`,
    );
  }
  const mapped = outboundToAppError(error, step);
  if (mapped instanceof AppError) return mapped;
  if (
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError
  ) {
    return new AppError("bad_gateway", `${step}: ${error.message}`);
  }
  if (error instanceof AppError) return error;
  return new AppError("bad_gateway", `${step}: the provider could not be used`);
}

/** Whether the error is the provider saying a grant (code or refresh token) is no longer valid. */
export const isInvalidGrant = (error: unknown) =>
  error instanceof oauth.ResponseBodyError && error.error === "invalid_grant";
