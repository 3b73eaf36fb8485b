import type { ChangedPassword, ChangePasswordInput } from "@/schemas/account";
import type { Actor } from "@/server/auth/actor";
import { hashPassword, verifyPassword } from "@/server/auth/passwords";
import type { Db } from "@/server/db";
import { invalidField, notFound } from "@/server/errors";
import { recordAudit } from "./audit/record";

// The signed-in user's own password: changed here, and required after a one-time password.

/**
 * Checks the current password, stores the new one, clears the one-time flag and ends every
 * other session of the user (a stolen cookie stops working); the current browser stays in.
 */
export async function changePassword(
  db: Db,
  actor: Actor,
  input: ChangePasswordInput,
): Promise<ChangedPassword> {
  const user = actor.userId ? await db.user.findUnique({ where: { id: actor.userId } }) : null;
  if (!user) throw notFound("No signed-in user.");
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.current_password)))
    throw invalidField(["current_password"], "The current password is not correct.");
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
