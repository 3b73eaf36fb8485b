import { REQUEST_ID_HEADER } from "@/server/request-id";
import { AppError, isDatabaseUnavailable } from "@/server/errors";
import { describeError, log } from "@/server/log";

export function jsonResponse(
  body: unknown,
  status: number,
  requestId: string,
  headers: Record<string, string> = {},
) {
  const init = { status, headers: { [REQUEST_ID_HEADER]: requestId, ...headers } };
  if (status === 204 || body === undefined) return new Response(null, init);
  return Response.json(body, init);
}

/** A body that is already the contract's JSON text (built by the database): sent as it is. */
export function jsonTextResponse(text: string, status: number, requestId: string) {
  return new Response(text, {
    status,
    headers: { [REQUEST_ID_HEADER]: requestId, "content-type": "application/json" },
  });
}

/** The contract's error body for a domain error (FastAPI-compatible). */
/** Server-sent events: never cached, transformed or buffered by a proxy on the way. */
export function eventStreamResponse(body: ReadableStream<Uint8Array>, requestId: string) {
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      [REQUEST_ID_HEADER]: requestId,
    },
  });
}

export function appErrorBody(error: AppError) {
  return error.issues ? { detail: error.issues } : { detail: error.message, code: error.code };
}

/** The contract's error bodies (FastAPI-compatible). Unknown failures are logged, never shown. */
export function errorResponse(
  error: unknown,
  requestId: string,
  where: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  if (error instanceof AppError)
    return jsonResponse(appErrorBody(error), error.status, requestId, headers);
  if (isDatabaseUnavailable(error)) {
    log.error("database unavailable", { request_id: requestId, ...where, ...describeError(error) });
    return jsonResponse(
      { detail: "Service unavailable: the database cannot be reached", code: "unavailable" },
      503,
      requestId,
      headers,
    );
  }
  log.error("unhandled error", { request_id: requestId, ...where, ...describeError(error) });
  return jsonResponse({ detail: "Internal server error" }, 500, requestId, headers);
}
