import type { NextRequest } from "next/server";
import { readBodyUpTo } from "@/server/limited-body";
import { AppError } from "@/server/errors";
import type { IngestOutcome } from "@/server/services/tracing/ingest";
import { TRACING_MAX_BODY_BYTES } from "@/server/services/tracing/limits";
import { parseJson } from "@/server/validation";

// Bodies of the tracing routes: larger than the rest of the API allows (a batch of runs), never
// compressed (GET /api/v1/info advertises no compression), and answered per item.

/** Compressed bodies are refused: the SDK only compresses when /info says it may. */
export function refuseEncodedBody(request: NextRequest): void {
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "")
    throw new AppError(
      "unsupported_media_type",
      `Content-Encoding ${encoding} is not accepted: send the body uncompressed`,
    );
}

/** A JSON body of up to TRACING_MAX_BODY_BYTES. */
export async function readTracingJson(request: NextRequest): Promise<unknown> {
  refuseEncodedBody(request);
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type.trim()))
    throw new AppError(
      "unsupported_media_type",
      "Request body must be JSON (Content-Type: application/json)",
    );
  if (Number(request.headers.get("content-length") ?? "0") > TRACING_MAX_BODY_BYTES)
    throw new AppError(
      "payload_too_large",
      `Request body is larger than ${TRACING_MAX_BODY_BYTES} bytes`,
    );
  const body = await readBodyUpTo(request, TRACING_MAX_BODY_BYTES);
  if (body === null)
    throw new AppError(
      "payload_too_large",
      `Request body is larger than ${TRACING_MAX_BODY_BYTES} bytes`,
    );
  return parseJson(body.toString("utf8"));
}

/**
 * A batch's answer: 202 when everything was stored; else 413 when a part was too large, 422
 * otherwise, naming each refused item (the others were stored: a retry stores nothing twice).
 * Never 404 (the SDK takes a 404 from multipart ingest for "no multipart here").
 */
export function batchAnswer(outcome: IngestOutcome) {
  const { issues } = outcome;
  if (issues.length === 0) return { $status: 202, body: { accepted: outcome.accepted } };
  const large = issues.filter((i) => i.status === 413);
  if (large.length > 0) {
    const others = issues.length - large.length;
    throw new AppError(
      "payload_too_large",
      `${large.map((i) => i.msg).join("; ")}. The other parts were stored${others ? `, except ${others} refused for other reasons (send them alone to see why)` : ""}.`,
    );
  }
  throw new AppError(
    "validation",
    "Some runs were refused; the others were stored",
    issues.map(({ loc, msg, type }) => ({ loc, msg, type })),
  );
}

/** A single run's answer: its own issue's status (404, 409, 413, 422). */
export function singleAnswer(outcome: IngestOutcome) {
  const [first] = outcome.issues;
  if (!first) return { $status: 202, body: {} };
  if (first.status === 422)
    throw new AppError(
      "validation",
      first.msg,
      outcome.issues.map(({ loc, msg, type }) => ({ loc, msg, type })),
    );
  throw new AppError(
    first.status === 404 ? "not_found" : first.status === 409 ? "conflict" : "payload_too_large",
    first.msg,
  );
}
