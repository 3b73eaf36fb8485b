import { tagsRouter } from "./routers/tags";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  tags: tagsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
