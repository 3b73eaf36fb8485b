import { changedPassword, changePasswordInput } from "@/schemas/account";
import { changePassword } from "@/server/services/account";
import { createRouter, signedInProcedure } from "../trpc";

export const accountRouter = createRouter({
  /** The signed-in user's new password; their other sessions end. */
  changePassword: signedInProcedure
    .input(changePasswordInput)
    .output(changedPassword)
    .mutation(({ ctx, input }) => changePassword(ctx.db, ctx.actor, input)),
});
