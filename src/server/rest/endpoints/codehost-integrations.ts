import { z } from "zod";
import {
  codehostInstallation,
  codehostIntegration,
  createCodehostIntegrationBody,
  integrationParams,
  repository,
} from "@/schemas/codehost-integrations";
import { defineEndpoint } from "../endpoint";

const tag = "Code-host integrations";

export const codehostIntegrationEndpoints = {
  create: defineEndpoint({
    method: "POST",
    path: "/v1/integrations/codehost",
    orgRole: "admin",
    operationId: "createCodehostIntegration",
    summary: "Connect a code host with a token or app credentials",
    description:
      "The credentials are tried against the code host first (422 when refused or unreachable); names are unique per organization (409). Credentials are encrypted at rest and never returned.",
    tag,
    body: createCodehostIntegrationBody,
    response: codehostIntegration,
    status: 201,
    errors: [400, 403, 409, 413, 415],
  }),
  listInstallations: defineEndpoint({
    method: "GET",
    path: "/v1/integrations/codehost/install",
    operationId: "listCodehostInstallations",
    summary: "List the organization's code-host integrations, oldest first",
    tag,
    response: z.array(codehostInstallation),
    status: 200,
    errors: [403],
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v1/integrations/codehost/{integration_id}",
    operationId: "getCodehostIntegration",
    summary: "Get a code-host integration",
    tag,
    params: integrationParams,
    response: codehostIntegration,
    status: 200,
    errors: [403, 404],
  }),
  delete: defineEndpoint({
    method: "DELETE",
    path: "/v1/integrations/codehost/{integration_id}",
    orgRole: "admin",
    operationId: "deleteCodehostIntegration",
    summary: "Delete a code-host integration",
    description: "409 while a deployment (also one being deleted) uses it.",
    tag,
    params: integrationParams,
    status: 204,
    errors: [403, 404, 409],
  }),
  listRepositories: defineEndpoint({
    method: "GET",
    path: "/v1/integrations/forge/codehost/{integration_id}/repos",
    operationId: "listCodehostRepositories",
    summary: "List the repositories an integration can deploy from, by owner then name",
    tag,
    params: integrationParams,
    response: z.array(repository),
    status: 200,
    errors: [403, 404, 502],
  }),
};
