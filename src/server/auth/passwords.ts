import { channel } from "node:diagnostics_channel";
import { hash, verify } from "@node-rs/argon2";

// Argon2id with the library's defaults (OWASP-recommended parameters).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Verified instead when there is no stored hash (an unknown email, an account without a
 * password), so those answers cost the same work as a wrong password. The hash of a random
 * secret nobody kept, with the defaults above (a unit test checks they still match).
 */
export const DUMMY_PASSWORD_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$agfYB1leYNY0E2wBh2/wcg$KS6loHWjNuqaV9hZkOakWE/jskuSXzVsIq/lKEQEzRM";

/**
 * Announces every verification with the hash's algorithm and cost (never the hash itself), so
 * tests can see that each credential check does the same work. Costs nothing unsubscribed.
 */
export const passwordVerifications = channel("hangar:password.verify");

/** The algorithm and cost part of a PHC string (`$argon2id$v=19$m=...,t=...,p=...`). */
export const hashParameters = (stored: string) => stored.split("$").slice(0, 4).join("$");

/** Checks a password against a stored hash; with none, against the dummy, and answers false. */
export async function verifyPassword(
  stored: string | null | undefined,
  password: string,
): Promise<boolean> {
  const against = stored || DUMMY_PASSWORD_HASH;
  if (passwordVerifications.hasSubscribers)
    passwordVerifications.publish({ parameters: hashParameters(against) });
  let matches: boolean;
  try {
    matches = await verify(against, password);
  } catch {
    matches = false;
  }
  return matches && Boolean(stored);
}
