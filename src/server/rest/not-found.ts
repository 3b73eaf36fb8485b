import type { NextRequest } from "next/server";
import { AppError } from "@/server/errors";
import { errorResponse } from "./responses";

/** Unknown API paths answer in JSON like every other error. */
export async function unknownRoute(req: NextRequest): Promise<Response> {
  const requestId = req.headers.get("x-request-id") ?? crypto.randomUUID();
  return errorResponse(new AppError("not_found", "Not Found"), requestId);
}
