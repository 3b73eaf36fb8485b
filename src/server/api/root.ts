import { tagsRouter } from "./routers/tags";
import { apiKeysRouter } from "./routers/api-keys";
import { auditRouter } from "./routers/audit";
import { membersRouter } from "./routers/members";
import { workspacesRouter } from "./routers/workspaces";
import { createCallerFactory, createRouter } from "./trpc";

export const appRouter = createRouter({
  tags: tagsRouter,
  apiKeys: apiKeysRouter,
  members: membersRouter,
  workspaces: workspacesRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
