import { CredentialsSignin } from "next-auth";
import { sha256Hex } from "@/server/crypto";
import { getLimiter } from "@/server/ratelimit/limiter";

/**
 * Wrong passwords per account, whatever address they come from (the proxy limits each address
 * separately: rules.ts `signin-ip`). Once an account has this many failures in the window, every
 * attempt is refused, the right password too, until the oldest failure leaves the window.
 */
export const SIGN_IN_FAILURE_LIMIT = { count: 10, seconds: 900 };

export class TooManySignInAttempts extends CredentialsSignin {
  code = "too_many_attempts";
}

const keyOf = (email: string) => `signin-failures:${sha256Hex(email.toLowerCase())}`;

/** Throws TooManySignInAttempts when the account is locked; checked before the password. */
export async function assertSignInAllowed(email: string): Promise<void> {
  const limiter = getLimiter();
  if (limiter && (await limiter.spent(keyOf(email), SIGN_IN_FAILURE_LIMIT)))
    throw new TooManySignInAttempts();
}

export async function countSignInFailure(email: string): Promise<void> {
  await getLimiter()?.hitKey(keyOf(email), SIGN_IN_FAILURE_LIMIT);
}
