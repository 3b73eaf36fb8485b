import { z } from "zod";
import { deploymentIdParams } from "@/schemas/deployments";
import { pushToken, registryToken, registryTokenQuery } from "@/schemas/registry";
import { defineEndpoint } from "../endpoint";

export const registryEndpoints = {
  createPushToken: defineEndpoint({
    method: "POST",
    path: "/v2/deployments/{deployment_id}/push-token",
    operationId: "createPushToken",
    summary: "Get a token to push an image to Hangar's registry",
    description:
      "For `internal_container` deployments (400 otherwise; 503 when no registry is configured). Log in to the registry as `oauth2accesstoken` with `token` as the password, push `<registry_url>/<deployment name>:<tag>`, then PATCH `source_revision_config.image_uri` to that image. The token is valid for one hour, for this deployment's repository only.",
    tag: "Registry",
    params: deploymentIdParams,
    response: pushToken,
    status: 200,
    errors: [400, 403, 404, 409, 503],
  }),
  revokePushTokens: defineEndpoint({
    method: "DELETE",
    path: "/v2/deployments/{deployment_id}/push-token",
    operationId: "revokePushTokens",
    summary: "Revoke the deployment's push tokens",
    description: "Every push token of the deployment stops working at once.",
    tag: "Registry",
    params: deploymentIdParams,
    status: 204,
    errors: [403, 404],
  }),
  token: defineEndpoint({
    method: "GET",
    path: "/registry/token",
    operationId: "getRegistryToken",
    summary: "Token server of Hangar's container registry",
    description:
      "The registry's `auth.token.realm` (Docker token authentication). Basic credentials `oauth2accesstoken:<push token>`; the answer is an ES256 JWT (issuer `hangar`, audience the registry's service) granting, of the requested scopes, push and pull on the push token's deployment repository only. Invalid, expired or revoked push tokens answer 401.",
    tag: "Registry",
    auth: "public",
    query: registryTokenQuery,
    response: registryToken,
    status: 200,
    errors: [400, 401, 503],
  }),
  certificate: defineEndpoint({
    method: "GET",
    path: "/registry/certificate",
    operationId: "getRegistryCertificate",
    summary: "The certificate registry tokens are signed with (the registry's rootcertbundle)",
    tag: "Registry",
    auth: "public",
    response: z.string().meta({ description: "PEM" }),
    responseType: "application/x-pem-file",
    status: 200,
    errors: [],
  }),
};
