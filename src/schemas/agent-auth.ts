import { z } from "zod";
import { documentedAs, timestamp, uuid } from "./common";
import { oauthProvider } from "./oauth-providers";
import { secureUrl } from "./urls";

// Agent authorization (contract 13): users' tokens at OAuth providers, the flows that obtain
// them, agents' connections to them, and MCP discovery.

const providerIdRef = z.string().min(1).max(256);
/** The end user an agent acts for, as the agent names them. */
const userIdText = z.string().trim().min(1).max(256);
const scope = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, "a scope is printable ASCII without spaces, quotes or \\");

export const authenticateBody = z
  .object({
    provider: providerIdRef.meta({ description: "The provider's provider_id" }),
    scopes: z.array(scope).max(100).default([]),
    user_id: userIdText.nullish().meta({
      description:
        "The end user the agent acts for; required with an API key, ignored for a session",
    }),
    agent_id: uuid.nullish().meta({ description: "A deployment id of the workspace" }),
    force_new: z.boolean().default(false),
    token_id: uuid.nullish().meta({ description: "Use this stored token" }),
    is_default: z.boolean().default(false),
  })
  .meta({ id: "AuthenticateRequest" });
export type AuthenticateInput = z.output<typeof authenticateBody>;

export const authStatus = z.enum(["completed", "pending", "connection_required", "token_expired"]);

export const tokenMetadata = z
  .object({
    token_id: uuid.nullable(),
    provider_id: z.string(),
    provider_account_label: z.string().nullable(),
    scopes: z.array(z.string()),
    expires_at: timestamp.nullable(),
    is_default: z.boolean().nullable(),
  })
  .meta({ id: "AuthTokenMetadata" });

export const authenticateResult = z
  .object({
    status: authStatus,
    url: z.string().nullable().meta({ description: "The provider's authorization URL" }),
    auth_id: uuid.nullable().meta({ description: "The flow to wait for" }),
    token: z.string().nullable().meta({ description: "The access token, when completed" }),
    user_id: z.string(),
    metadata: tokenMetadata,
  })
  .meta({ id: "AuthenticateResult" });
export type AuthenticateResult = z.infer<typeof authenticateResult>;

export const callbackParams = z.object({ provider_id: providerIdRef });
export const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  iss: z.string().max(2048).optional().meta({ description: "RFC 9207 issuer identifier" }),
});
export type CallbackQuery = z.output<typeof callbackQuery>;
export const callbackBody = z
  .object({ code: z.string().min(1).max(4096), state: z.string().min(1).max(512) })
  .meta({ id: "AuthCallbackRequest" });
export const callbackResult = z
  .object({
    status: z.literal("completed"),
    auth_id: uuid,
    token_id: uuid,
    provider_id: z.string(),
    provider_account_label: z.string().nullable(),
  })
  .meta({ id: "AuthCallbackResult" });
export type CallbackResult = z.infer<typeof callbackResult>;

export const waitParams = z.object({ auth_id: z.string().min(1).max(64) });
export const waitQuery = z.object({
  timeout: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "Input should be a number of seconds")
    .transform(Number)
    .pipe(z.number().min(0).max(60))
    .optional()
    .transform((v) => v ?? 30)
    .meta({ override: documentedAs({ type: "number", minimum: 0, maximum: 60, default: 30 }) }),
});
export const waitResult = z
  .object({
    status: z.enum(["completed", "pending", "timeout", "not_found", "failed"]),
    token: z.string().nullable(),
    error: z.string().nullable().meta({ description: "Why the flow failed (status failed)" }),
  })
  .meta({ id: "AuthWaitResult" });
export type WaitResult = z.infer<typeof waitResult>;

export const oauthToken = z
  .object({
    id: uuid,
    provider_id: z.string(),
    user_id: z.string(),
    provider_account_label: z.string().nullable(),
    scopes: z.array(z.string()),
    expires_at: timestamp.nullable(),
    is_default: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "OAuthToken", description: "A stored token; its values are never returned." });
export type OAuthTokenView = z.infer<typeof oauthToken>;

export const tokensQuery = z.object({
  provider_id: providerIdRef.optional(),
  user_id: userIdText.optional(),
});
export type TokensQuery = z.output<typeof tokensQuery>;
export const tokensByProviderQuery = tokensQuery.extend({ provider_id: providerIdRef });
export const tokenParams = z.object({ token_id: uuid });
export const tokenMetadataBody = z
  .object({
    provider_account_label: z.string().trim().min(1).max(200).nullish(),
    is_default: z.boolean().optional(),
  })
  .meta({ id: "UpdateOAuthTokenMetadata" });
export type TokenMetadataInput = z.output<typeof tokenMetadataBody>;
export const tokenExists = z.object({ has_token: z.boolean() }).meta({ id: "TokenExists" });
export const deletedCount = z.object({ deleted: z.number().int() }).meta({ id: "DeletedCount" });

export const agentParams = z.object({ agent_id: uuid });
export const connectionParams = agentParams.extend({ connection_id: uuid });
export const createConnectionBody = z
  .object({ oauth_token_id: uuid })
  .meta({ id: "CreateAgentConnection" });
export const agentConnection = z
  .object({
    id: uuid,
    agent_id: uuid,
    oauth_token_id: uuid,
    provider_id: z.string(),
    provider_account_label: z.string().nullable(),
    scopes: z.array(z.string()),
    expires_at: timestamp.nullable(),
    created_by: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "AgentConnection" });
export type AgentConnectionView = z.infer<typeof agentConnection>;

export const mcpDiscoverBody = z
  .object({
    provider_id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "letters, digits, _ . -"),
    name: z.string().trim().min(1).max(200),
    mcp_server_url: secureUrl,
  })
  .meta({ id: "McpDiscoverRequest" });
export type McpDiscoverInput = z.output<typeof mcpDiscoverBody>;
export const mcpDiscoverResult = oauthProvider;
