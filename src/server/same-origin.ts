/**
 * Whether a cookie-authenticated request comes from another site (CSRF): Sec-Fetch-Site says so,
 * or Origin names another host. An Origin that is not a URL (including "null") counts as
 * another site: it can never be proven to be ours.
 */
export function isCrossSite(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = headers.get("origin");
  if (origin === null) return false;
  try {
    return new URL(origin).host !== headers.get("host");
  } catch {
    return true;
  }
}
