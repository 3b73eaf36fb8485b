import { changedPassword, changePasswordInput } from "@/schemas/account";
import { changePassword } from "@/server/services/account";
import { createRouter, workspaceProcedure } from "../trpc";

export const accountRouter = createRouter({
  /** The signed-in user's new password; their other sessions end. */
  changePassword: workspaceProcedure
    .input(changePasswordInput)
    .output(changedPassword)
    .mutation(({ ctx, input }) => changePassword(ctx.db, ctx.actor, input)),
});
