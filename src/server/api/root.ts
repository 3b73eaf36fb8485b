import { accountRouter } from "./routers/account";
import { agentAuthRouter } from "./routers/agent-auth";
import { deploymentsRouter } from "./routers/deployments";
import { codehostIntegrationsRouter } from "./routers/codehost-integrations";
import { oauthProvidersRouter } from "./routers/oauth-providers";
import { previewsRouter } from "./routers/previews";
import { revisionsRouter } from "./routers/revisions";
import { runtimeRouter } from "./routers/runtime";
import { sessionRouter } from "./routers/session";
import { tagsRouter } from "./routers/tags";
import { apiKeysRouter } from "./routers/api-keys";
import { auditRouter } from "./routers/audit";
import { membersRouter } from "./routers/members";
import { workspacesRouter } from "./routers/workspaces";
import { listenersRouter } from "./routers/listeners";
import { registryRouter } from "./routers/registry";
import { tracingRouter } from "./routers/tracing";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  deployments: deploymentsRouter,
  revisions: revisionsRouter,
  previews: previewsRouter,
  runtime: runtimeRouter,
  session: sessionRouter,
  tags: tagsRouter,
  oauthProviders: oauthProvidersRouter,
  agentAuth: agentAuthRouter,
  codehostIntegrations: codehostIntegrationsRouter,
  apiKeys: apiKeysRouter,
  members: membersRouter,
  workspaces: workspacesRouter,
  audit: auditRouter,
  listeners: listenersRouter,
  account: accountRouter,
  registry: registryRouter,
  tracing: tracingRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
