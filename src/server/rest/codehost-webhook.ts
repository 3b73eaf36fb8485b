import { requestIdFrom } from "@/server/request-id";
import type { NextRequest } from "next/server";
import { webhookParams } from "@/schemas/webhooks";
import { getDb } from "@/server/db";
import { receiveCodehostWebhook } from "@/server/services/codehost-webhooks";
import { webhookEndpoints } from "./endpoints/webhooks";
import { errorResponse, jsonResponse } from "./responses";
import type { RouteHandler } from "./route";
import { readLimitedBytes } from "./route";
import { parseOrThrow } from "@/server/validation";

// The webhook needs its raw body (the signature covers the exact bytes), so it reads the body
// itself instead of through route(); errors still get the contract's bodies.

const endpoint = webhookEndpoints.codehost;

export const receiveWebhook: RouteHandler = async (req: NextRequest, ctx) => {
  const requestId = requestIdFrom(req.headers);
  try {
    const params = parseOrThrow("path", webhookParams, await ctx.params);
    const rawBody = await readLimitedBytes(req);
    const receipt = await receiveCodehostWebhook(
      getDb(),
      params.integration_id,
      req.headers,
      rawBody,
    );
    return jsonResponse(receipt, endpoint.status, requestId);
  } catch (error) {
    return errorResponse(error, requestId, { method: endpoint.method, path: endpoint.path });
  }
};
