import { getToken } from "next-auth/jwt";

const SESSION_COOKIE = "authjs.session-token";
const SECURE_PREFIX = "__Secure-";

/**
 * The signed-in dashboard user's id, for rate limiting only. Decodes the session JWT with
 * next-auth's getToken (one decryption, no database, no cookie rewrite) and only when the
 * session cookie is present; `auth()` would also run the callbacks and load Prisma in the proxy.
 */
export async function sessionUserId(headers: Headers, secret: string | undefined) {
  const cookie = headers.get("cookie");
  if (!secret || !cookie?.includes(SESSION_COOKIE)) return null;
  const token = await getToken({
    req: { headers },
    secret,
    secureCookie: cookie.includes(SECURE_PREFIX + SESSION_COOKIE),
  });
  return typeof token?.uid === "string" && token.uid ? token.uid : null;
}
