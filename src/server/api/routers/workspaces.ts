import { z } from "zod";
import { createWorkspaceInput, myWorkspace, workspace } from "@/schemas/workspaces";
import * as workspaces from "@/server/services/workspaces";
import { createRouter, workspaceProcedure } from "../trpc";

export const workspacesRouter = createRouter({
  /** For the workspace switcher; switching itself is the session's update({ workspaceId }). */
  listMine: workspaceProcedure
    .output(z.array(myWorkspace))
    .query(({ ctx }) => workspaces.listMyWorkspaces(ctx.db, ctx.actor)),
  create: workspaceProcedure
    .input(createWorkspaceInput)
    .output(workspace)
    .mutation(({ ctx, input }) => workspaces.createWorkspace(ctx.db, ctx.actor, input)),
});
