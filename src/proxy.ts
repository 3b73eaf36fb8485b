import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/server/errors";
import { getLimiter } from "@/server/ratelimit/limiter";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/server/request-id";
import { errorResponse } from "@/server/rest/responses";
import { trpcCallCount } from "@/trpc/limits";

// The gate in front of every route: gives each request an id, then applies the rate limits.
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
  if (outcome.kind === "unavailable")
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
  for (const [name, value] of Object.entries(outcome.headers)) response.headers.set(name, value);
  return response;
}

// Signed uploads stay outside: the proxy buffers request bodies (10 MB at most) and an upload
// streams up to 200 MiB; its signature authorises it and route() gives it a request id.
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|v2/uploads/).*)"],
};
