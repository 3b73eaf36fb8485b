import { sessionMe } from "@/schemas/session";
import { getSessionMe } from "@/server/services/session";
import { createRouter, workspaceProcedure } from "../trpc";

export const sessionRouter = createRouter({
  me: workspaceProcedure.output(sessionMe).query(({ ctx }) => getSessionMe(ctx.db, ctx.actor)),
});
