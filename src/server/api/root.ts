import { deploymentsRouter } from "./routers/deployments";
import { sessionRouter } from "./routers/session";
import { tagsRouter } from "./routers/tags";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  deployments: deploymentsRouter,
  session: sessionRouter,
  tags: tagsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
