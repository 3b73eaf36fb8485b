import { z } from "zod";
import { timestamp, uuid } from "./common";
import { secureUrl } from "./urls";

// OAuth providers (spec 2.1, 2.8; contract 7): an organization's outbound OAuth client settings.

export const tokenEndpointAuthMethods = [
  "none",
  "client_secret_basic",
  "client_secret_post",
] as const;
export const tokenEndpointAuthMethod = z
  .enum(tokenEndpointAuthMethods)
  .meta({ id: "TokenEndpointAuthMethod" });
export type TokenEndpointAuthMethod = z.infer<typeof tokenEndpointAuthMethod>;

export const codeChallengeMethod = z.enum(["S256", "plain"]).meta({ id: "CodeChallengeMethod" });
export const providerType = z
  .enum(["microsoft", "salesforce", "slack"])
  .meta({ id: "ProviderType" });

/** Used as a path segment, so kept to URL-safe characters. */
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const providerIdText = z
  .string()
  .min(1)
  .max(128)
  .regex(PROVIDER_ID, "provider_id starts with a letter or digit and holds letters, digits, _ . -");

const text = (max: number) => z.string().trim().min(1).max(max);
const clientSecret = z.string().min(1).max(4096);

export const oauthProvider = z
  .object({
    id: uuid,
    organization_id: uuid,
    provider_id: z.string(),
    name: z.string(),
    client_id: z.string(),
    auth_url: z.string(),
    token_url: z.string(),
    uses_pkce: z.boolean(),
    code_challenge_method: codeChallengeMethod.meta({
      description: "S256 unless plain was chosen (also S256 when uses_pkce is false)",
    }),
    created_at: timestamp,
    updated_at: timestamp,
    provider_type: providerType.nullable(),
    mcp_server_url: z.string().nullable(),
    token_endpoint_auth_method: tokenEndpointAuthMethod,
    is_dynamic_client: z.boolean(),
  })
  .meta({ id: "OAuthProvider", description: "The client secret is never returned." });
export type OAuthProvider = z.infer<typeof oauthProvider>;

export const createOAuthProviderBody = z
  .object({
    provider_id: providerIdText,
    name: text(200),
    client_id: text(1024),
    auth_url: secureUrl,
    token_url: secureUrl,
    client_secret: clientSecret.nullish().meta({
      description: "Required unless token_endpoint_auth_method is none; write-only",
    }),
    uses_pkce: z.boolean().default(false),
    code_challenge_method: codeChallengeMethod
      .nullish()
      .meta({ description: "Default S256; ignored (null) when uses_pkce is false" }),
    provider_type: providerType.nullish(),
    mcp_server_url: secureUrl.nullish(),
    token_endpoint_auth_method: tokenEndpointAuthMethod.default("client_secret_post"),
    is_dynamic_client: z.boolean().default(false),
  })
  .meta({ id: "CreateOAuthProvider" });
export type CreateOAuthProviderInput = z.output<typeof createOAuthProviderBody>;

/** Every member optional; provider_id may be sent but not changed; client_secret null removes it. */
export const updateOAuthProviderBody = z
  .object({
    provider_id: providerIdText.optional(),
    name: text(200).optional(),
    client_id: text(1024).optional(),
    auth_url: secureUrl.optional(),
    token_url: secureUrl.optional(),
    client_secret: clientSecret.nullish(),
    uses_pkce: z.boolean().optional(),
    code_challenge_method: codeChallengeMethod.nullish(),
    provider_type: providerType.nullish(),
    mcp_server_url: secureUrl.nullish(),
    token_endpoint_auth_method: tokenEndpointAuthMethod.optional(),
    is_dynamic_client: z.boolean().optional(),
  })
  .meta({ id: "UpdateOAuthProvider" });
export type UpdateOAuthProviderInput = z.output<typeof updateOAuthProviderBody>;

/** Lookups answer 404 for any unknown id, so the path accepts any non-empty segment. */
export const oauthProviderParams = z.object({ provider_id: z.string().min(1).max(256) });
