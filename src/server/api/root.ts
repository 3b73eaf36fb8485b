import { deploymentsRouter } from "./routers/deployments";
import { integrationsRouter } from "./routers/integrations";
import { oauthProvidersRouter } from "./routers/oauth-providers";
import { revisionsRouter } from "./routers/revisions";
import { tagsRouter } from "./routers/tags";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  deployments: deploymentsRouter,
  revisions: revisionsRouter,
  tags: tagsRouter,
  oauthProviders: oauthProvidersRouter,
  integrations: integrationsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
