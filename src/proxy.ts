import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/server/errors";
import { getLimiter } from "@/server/ratelimit/limiter";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/server/request-id";
import { errorResponse } from "@/server/rest/responses";
import { trpcCallCount } from "@/trpc/limits";

// The gate in front of every route: gives each request an id, then applies the rate limits.

/**
 * Health probes are counted like any anonymous call, but a fail-closed limiter without its store
 * does not refuse them: /healthz says the process is up, /readyz that the database answers, and
 * a load balancer or Kubernetes acting on a Redis outage would only make it worse (issue 27).
 */
const PROBES = new Set(["/healthz", "/readyz"]);

export async function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers);
  const outcome = (await getLimiter()?.check(
    request.method,
    request.nextUrl.pathname,
    request.headers,
    trpcCallCount(request.nextUrl.pathname),
  )) ?? { kind: "pass", headers: {} };
  if (outcome.kind === "limited")
    return errorResponse(
      new AppError("rate_limited", outcome.message),
      requestId,
      {},
      outcome.headers,
    );
  if (outcome.kind === "unavailable" && !PROBES.has(request.nextUrl.pathname))
    return errorResponse(
      new AppError("unavailable", "Service unavailable: the rate limiter cannot be reached"),
      requestId,
      {},
      { "Retry-After": "1" },
    );
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  const limitHeaders = outcome.kind === "pass" ? outcome.headers : {};
  for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
  return response;
}

// Signed uploads stay outside: the proxy buffers request bodies (10 MB at most) and an upload
// streams up to 200 MiB; its signature authorises it and route() gives it a request id.
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|v2/uploads/).*)"],
};
