import type { DbClient } from "@/server/db";
import { verifyPassword } from "./passwords";
import { countSignInFailure, signInLocked } from "./sign-in-limit";

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
}

/**
 * The user an email and password sign in, null for wrong credentials, or "locked" (too many
 * failures). An unknown email and an account without a password are verified against a dummy
 * hash: the same work and the same answer as a wrong password, so neither tells who has an
 * account.
 */
export async function checkCredentials(
  db: DbClient,
  email: string,
  password: string,
): Promise<SignedInUser | null | "locked"> {
  if (await signInLocked(email)) return "locked";
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
    await countSignInFailure(email);
    return null;
  }
  return { id: user.id, email: user.email, name: user.name };
}
