import { z } from "zod";
import {
  createOAuthProviderBody,
  oauthProvider,
  oauthProviderParams,
  updateOAuthProviderBody,
} from "@/schemas/oauth-providers";
import { defineEndpoint } from "../endpoint";

const tag = "OAuth providers";

export const oauthProviderEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v2/auth/providers",
    operationId: "listOAuthProviders",
    summary: "List the organization's OAuth providers, oldest first",
    tag,
    response: z.array(oauthProvider),
    status: 200,
    errors: [403],
  }),
  create: defineEndpoint({
    method: "POST",
    path: "/v2/auth/providers",
    orgRole: "admin",
    operationId: "createOAuthProvider",
    summary: "Register an OAuth provider",
    description:
      "`token_endpoint_auth_method` `none` is a public client: no `client_secret`, `uses_pkce` true. The other methods need `client_secret`, which is encrypted at rest and never returned.",
    tag,
    body: createOAuthProviderBody,
    response: oauthProvider,
    status: 201,
    errors: [400, 403, 409, 413, 415],
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v2/auth/providers/{provider_id}",
    operationId: "getOAuthProvider",
    summary: "Read an OAuth provider by its provider_id",
    tag,
    params: oauthProviderParams,
    response: oauthProvider,
    status: 200,
    errors: [403, 404],
  }),
  update: defineEndpoint({
    method: "PATCH",
    path: "/v2/auth/providers/{provider_id}",
    orgRole: "admin",
    operationId: "updateOAuthProvider",
    summary: "Change an OAuth provider (client_secret may be replaced, never read)",
    tag,
    params: oauthProviderParams,
    body: updateOAuthProviderBody,
    response: oauthProvider,
    status: 200,
    errors: [400, 403, 404, 413, 415],
  }),
  delete: defineEndpoint({
    method: "DELETE",
    path: "/v2/auth/providers/{provider_id}",
    orgRole: "admin",
    operationId: "deleteOAuthProvider",
    summary: "Delete an OAuth provider",
    tag,
    params: oauthProviderParams,
    status: 204,
    errors: [403, 404],
  }),
};
