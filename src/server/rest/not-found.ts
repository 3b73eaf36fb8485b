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
