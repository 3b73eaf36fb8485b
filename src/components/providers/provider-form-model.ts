import { z } from "zod";
import {
  codeChallengeMethod,
  createOAuthProviderBody,
  PROVIDER_ID,
  providerType,
  tokenEndpointAuthMethod,
  type CreateOAuthProviderInput,
  type OAuthProvider,
  type UpdateOAuthProviderInput,
} from "@/schemas/oauth-providers";
import { secureUrl } from "@/schemas/urls";

// The provider form: the API's field schemas, text inputs ("" = unset) and contract 7's rules.

const api = createOAuthProviderBody.shape;

export interface ProviderRule {
  id: string;
  text: string;
  ok: boolean;
}

interface RuleInput {
  token_endpoint_auth_method: string;
  uses_pkce: boolean;
  client_secret: string;
}

/** Contract 7's cross-field rules for the chosen method, each with whether the form meets it. */
export function providerRules(v: RuleInput, secretStored: boolean): ProviderRule[] {
  if (v.token_endpoint_auth_method === "none") {
    return [
      { id: "pkce", text: "A public client (method none) must use PKCE", ok: v.uses_pkce },
      { id: "no-secret", text: "A public client has no client secret", ok: v.client_secret === "" },
    ];
  }
  return [
    {
      id: "secret",
      text: `${v.token_endpoint_auth_method} sends a client secret: one is required`,
      ok: v.client_secret !== "" || secretStored,
    },
  ];
}

const ruleField: Record<string, "uses_pkce" | "client_secret"> = {
  pkce: "uses_pkce",
  "no-secret": "client_secret",
  secret: "client_secret",
};

export function providerFormSchema(secretStored: boolean) {
  return z
    .object({
      // The API's rule, said with the field's label (the REST error keeps the contract's words).
      provider_id: z
        .string()
        .min(1)
        .max(128)
        .regex(
          PROVIDER_ID,
          "Provider ID starts with a letter or digit and holds letters, digits, _ . -",
        ),
      name: api.name,
      client_id: api.client_id,
      auth_url: secureUrl,
      token_url: secureUrl,
      client_secret: z.string().max(4096),
      uses_pkce: z.boolean(),
      code_challenge_method: codeChallengeMethod,
      token_endpoint_auth_method: tokenEndpointAuthMethod,
      provider_type: z.union([z.literal(""), providerType]),
      mcp_server_url: z.union([z.literal(""), secureUrl]),
    })
    .superRefine((v, ctx) => {
      for (const rule of providerRules(v, secretStored)) {
        if (!rule.ok)
          ctx.addIssue({ code: "custom", path: [ruleField[rule.id]!], message: rule.text });
      }
    });
}
export type ProviderFormValues = z.infer<ReturnType<typeof providerFormSchema>>;

export const emptyProvider: ProviderFormValues = {
  provider_id: "",
  name: "",
  client_id: "",
  auth_url: "",
  token_url: "",
  client_secret: "",
  uses_pkce: true,
  code_challenge_method: "S256",
  token_endpoint_auth_method: "client_secret_post",
  provider_type: "",
  mcp_server_url: "",
};

export function formValuesOf(p: OAuthProvider): ProviderFormValues {
  return {
    provider_id: p.provider_id,
    name: p.name,
    client_id: p.client_id,
    auth_url: p.auth_url,
    token_url: p.token_url,
    client_secret: "",
    uses_pkce: p.uses_pkce,
    code_challenge_method: p.code_challenge_method ?? "S256",
    token_endpoint_auth_method: p.token_endpoint_auth_method,
    provider_type: p.provider_type ?? "",
    mcp_server_url: p.mcp_server_url ?? "",
  };
}

/** The API keeps a secret only for methods that send one; the response never says more. */
export const hasStoredSecret = (p: OAuthProvider) => p.token_endpoint_auth_method !== "none";

export function toCreateInput(v: ProviderFormValues): CreateOAuthProviderInput {
  return {
    ...toUpdateInput(v),
    provider_id: v.provider_id,
    is_dynamic_client: false,
  } as CreateOAuthProviderInput;
}

/** An empty secret field leaves the stored secret as it is (or, for `none`, lets it go). */
export function toUpdateInput(v: ProviderFormValues): UpdateOAuthProviderInput {
  return {
    name: v.name,
    client_id: v.client_id,
    auth_url: v.auth_url,
    token_url: v.token_url,
    ...(v.client_secret ? { client_secret: v.client_secret } : {}),
    uses_pkce: v.uses_pkce,
    code_challenge_method: v.uses_pkce ? v.code_challenge_method : null,
    token_endpoint_auth_method: v.token_endpoint_auth_method,
    provider_type: v.provider_type || null,
    mcp_server_url: v.mcp_server_url || null,
  };
}

/** Which form field a server error is about, from its 422 path or the 400's wording. */
export function fieldOfMessage(message: string): keyof ProviderFormValues | null {
  if (/client_secret/.test(message)) return "client_secret";
  if (/uses_pkce|PKCE/i.test(message)) return "uses_pkce";
  if (/provider_id|already exists/i.test(message)) return "provider_id";
  return null;
}

export const authMethodLabels: Record<string, string> = {
  none: "none (public client)",
  client_secret_basic: "client_secret_basic",
  client_secret_post: "client_secret_post",
};
export const providerTypeLabels: Record<string, string> = {
  "": "None (generic OAuth 2.0)",
  microsoft: "Microsoft",
  salesforce: "Salesforce",
  slack: "Slack",
};
