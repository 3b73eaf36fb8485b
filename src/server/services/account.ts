import type { ChangedPassword, ChangePasswordInput } from "@/schemas/account";
import type { Actor } from "@/server/auth/actor";
import { hashPassword, verifyPassword } from "@/server/auth/passwords";
import { countSignInFailure, signInLocked, TOO_MANY_ATTEMPTS } from "@/server/auth/sign-in-limit";
import type { Db } from "@/server/db";
import { AppError, invalidField, notFound } from "@/server/errors";
import { recordAudit } from "./audit/record";

// The signed-in user's own password: changed here, and required after a one-time password.

/**
 * Checks the current password, stores the new one, clears the one-time flag and ends every
 * other session of the user (a stolen cookie stops working); the current browser stays in.
 * Wrong current passwords count against the account's sign-in limit, which also holds here: a
 * stolen session cannot guess its way to the password.
 */
export async function changePassword(
  db: Db,
  actor: Actor,
  input: ChangePasswordInput,
): Promise<ChangedPassword> {
  const user = actor.userId ? await db.user.findUnique({ where: { id: actor.userId } }) : null;
  if (!user) throw notFound("No signed-in user.");
  if (await signInLocked(user.email)) throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
  if (!(await verifyPassword(user.passwordHash, input.current_password))) {
    await countSignInFailure(user.email);
    throw invalidField(["current_password"], "The current password is not correct.");
  }
  const passwordHash = await hashPassword(input.new_password);
  return db.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: user.id },
      data: { passwordHash, mustChangePassword: false },
    });
    const ended = await tx.session.updateMany({
      where: {
        userId: user.id,
        revokedAt: null,
        ...(actor.sessionId ? { id: { not: actor.sessionId } } : {}),
      },
      data: { revokedAt: new Date() },
    });
    await recordAudit(tx, actor, {
      action: "user.change_password",
      targetType: "user",
      targetId: user.id,
      data: { ended_sessions: ended.count, one_time: user.mustChangePassword },
    });
    return { ended_sessions: ended.count };
  });
}
