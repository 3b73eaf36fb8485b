// Shared by the tRPC route, the dashboard's batch link and the rate limiter (each call counts).

/** Calls in one tRPC batch; a larger batch is refused (400). */
export const MAX_TRPC_BATCH = 20;
/** A tRPC request body (mutations) larger than this is refused (413). */
export const MAX_TRPC_BODY_BYTES = 1024 * 1024;

/** How many calls a request to `/api/trpc/<a,b,c>` makes (1 for anything else). */
export function trpcCallCount(pathname: string): number {
  const match = /^\/api\/trpc\/([^/]+)$/.exec(pathname);
  if (!match) return 1;
  let procedures = match[1]!;
  try {
    procedures = decodeURIComponent(procedures);
  } catch {
    // left as sent; tRPC answers it
  }
  return Math.min(procedures.split(",").length, MAX_TRPC_BATCH + 1);
}
