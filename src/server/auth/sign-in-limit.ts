import { sha256Hex } from "@/server/crypto";
import { getLimiter } from "@/server/ratelimit/limiter";

/**
 * Wrong passwords per account, whatever address they come from (the proxy limits each address
 * separately: rules.ts `signin-ip`). Once an account has this many failures in the window, every
 * attempt is refused, the right password too, until the oldest failure leaves the window. Both
 * sign-in and a password change (its current password) count and obey it.
 */
export const SIGN_IN_FAILURE_LIMIT = { count: 10, seconds: 900 };

export const TOO_MANY_ATTEMPTS =
  "Too many sign-in attempts for this account. Try again in a few minutes.";

const keyOf = (email: string) => `signin-failures:${sha256Hex(email.toLowerCase())}`;

/** Whether the account is locked; checked before the password. */
export async function signInLocked(email: string): Promise<boolean> {
  const limiter = getLimiter();
  return Boolean(limiter && (await limiter.spent(keyOf(email), SIGN_IN_FAILURE_LIMIT)));
}

export async function countSignInFailure(email: string): Promise<void> {
  await getLimiter()?.hitKey(keyOf(email), SIGN_IN_FAILURE_LIMIT);
}
