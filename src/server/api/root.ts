import { deploymentsRouter } from "./routers/deployments";
import { revisionsRouter } from "./routers/revisions";
import { tagsRouter } from "./routers/tags";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  deployments: deploymentsRouter,
  revisions: revisionsRouter,
  tags: tagsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
