import { requestIdFrom } from "@/server/request-id";
import type { NextRequest } from "next/server";
import { AppError } from "@/server/errors";
import { errorResponse } from "./responses";

/** Unknown API paths answer in JSON like every other error. */
export async function unknownRoute(req: NextRequest): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  return errorResponse(new AppError("not_found", "Not Found"), requestId);
}

/** Every method of a catch-all route under an API version root. */
export const unknownRouteHandlers = {
  GET: unknownRoute,
  POST: unknownRoute,
  PATCH: unknownRoute,
  PUT: unknownRoute,
  DELETE: unknownRoute,
};

type Handler = (req: NextRequest, ctx: never) => Promise<Response>;

/**
 * A path's handlers where every method it does not implement is the contract's 404, not a 405:
 * under the tracing base the SDK treats any other answer to an unknown route as a failure.
 */
export function methodsOrNotFound<
  H extends Partial<Record<keyof typeof unknownRouteHandlers, Handler>>,
>(handlers: H) {
  return { ...unknownRouteHandlers, ...handlers };
}
