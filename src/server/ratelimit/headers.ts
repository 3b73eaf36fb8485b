import type { Limit } from "./rules";
import type { HitResult } from "./store";

/**
 * The IETF structured-field headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy`
 * with quota `q` and window `w`, `RateLimit` with remaining `r` and seconds-to-reset `t`) and
 * GitHub's X-RateLimit-* (reset as epoch seconds). "Reset" is when the oldest counted request
 * leaves the sliding window, i.e. when at least one more request will be admitted.
 */
export function rateLimitHeaders(
  policy: string,
  limit: Limit,
  result: HitResult,
  now = Date.now(),
): Record<string, string> {
  const resetSeconds = Math.max(0, Math.ceil(result.resetMs / 1000));
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${policy}";q=${limit.count};w=${limit.seconds}`,
    RateLimit: `"${policy}";r=${result.remaining};t=${resetSeconds}`,
    "X-RateLimit-Limit": String(limit.count),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(Math.ceil((now + result.resetMs) / 1000)),
  };
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, resetSeconds));
  return headers;
}
