import { z } from "zod";
import { sessionMe } from "@/schemas/session";
import { browserSession, sessionIdInput } from "@/schemas/sessions";
import { getSessionMe } from "@/server/services/session";
import { listMySessions, revokeMySession } from "@/server/services/sessions";
import { createRouter, signedInProcedure, workspaceProcedure } from "../trpc";

export const sessionRouter = createRouter({
  me: signedInProcedure.output(sessionMe).query(({ ctx }) => getSessionMe(ctx.db, ctx.actor)),
  /** The signed-in user's live browser sessions, most recently seen first. */
  list: workspaceProcedure
    .output(z.array(browserSession))
    .query(({ ctx }) => listMySessions(ctx.db, ctx.actor)),
  revoke: workspaceProcedure
    .input(sessionIdInput)
    .mutation(({ ctx, input }) => revokeMySession(ctx.db, ctx.actor, input.id)),
});
