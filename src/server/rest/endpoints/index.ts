import { deployLogEndpoints } from "./deploy-logs";
import { deploymentEndpoints } from "./deployments";
import { previewEndpoints } from "./previews";
import { revisionEndpoints } from "./revisions";
import { serviceEndpoints } from "./service";
import { tagEndpoints } from "./tags";
import { templateEndpoints } from "./templates";
import { oauthProviderEndpoints } from "./oauth-providers";
import { agentAuthEndpoints } from "./agent-auth";
import { codehostIntegrationEndpoints } from "./codehost-integrations";
import { webhookEndpoints } from "./webhooks";
import { listenerEndpoints, listenerProtocolEndpoints } from "./listeners";
import { registryEndpoints } from "./registry";
import { buildContextEndpoints } from "./build-contexts";
import { runtimeEndpoints } from "./runtime";
import { tracingEndpoints } from "./tracing";

/** Every REST operation, for the OpenAPI document and the fuzz test. Add each domain's group here. */
export const endpointGroups = {
  service: serviceEndpoints,
  deployments: deploymentEndpoints,
  revisions: revisionEndpoints,
  previews: previewEndpoints,
  deployLogs: deployLogEndpoints,
  templates: templateEndpoints,
  tags: tagEndpoints,
  oauthProviders: oauthProviderEndpoints,
  agentAuth: agentAuthEndpoints,
  codehostIntegrations: codehostIntegrationEndpoints,
  webhooks: webhookEndpoints,
  listeners: listenerEndpoints,
  listenerProtocol: listenerProtocolEndpoints,
  registry: registryEndpoints,
  buildContexts: buildContextEndpoints,
  runtime: runtimeEndpoints,
  tracing: tracingEndpoints,
};
