import { inject } from "vitest";
import { hashPassword } from "../../src/server/auth/passwords";
import { testDb } from "./fixtures";

/** One password attempt through next-auth's credentials callback, as a browser form would. */
export async function signInAttempt(
  email: string,
  password: string,
  options: { baseUrl?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const base = options.baseUrl ?? inject("baseUrl");
  const headers = options.headers ?? {};
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers });
  // Refused by the request proxy (429): that is the attempt's answer.
  if (!csrf.ok) return csrf;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = cookiesOf(csrf);
  return fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: base }),
  });
}

/** `name=value; ...` of the cookies a response sets. */
export const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

export const signedIn = (res: Response) =>
  res.headers.getSetCookie().some((c) => /^authjs\.session-token=[^;]+/.test(c));

/** Gives the user a password and signs in; returns the session cookie header. */
export async function signInAs(userId: string, password = "a-test-password-1"): Promise<string> {
  const user = await testDb().user.update({
    where: { id: userId },
    data: { passwordHash: await hashPassword(password) },
  });
  let res = await signInAttempt(user.email, password);
  // Every test signs in from 127.0.0.1, and the product allows 30 password attempts a minute
  // per address: a sign-in refused for that waits as long as the answer says and tries again.
  for (let attempt = 0; res.status === 429 && attempt < 4; attempt++) {
    const seconds = Math.min(Number(res.headers.get("retry-after") ?? "5") || 5, 60);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    res = await signInAttempt(user.email, password);
  }
  if (!signedIn(res))
    throw new Error(`sign-in failed: ${res.status} ${res.headers.get("location")}`);
  return cookiesOf(res)
    .split("; ")
    .filter((c) => c.startsWith("authjs.session-token="))
    .join("; ");
}

/** Signs the session out as the dashboard's menu does (next-auth's form POST with its CSRF token). */
export async function signOut(cookie: string, baseUrl = inject("baseUrl")): Promise<Response> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: {
      cookie: `${cookie}; ${cookiesOf(csrf)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ csrfToken, callbackUrl: baseUrl }),
  });
}
