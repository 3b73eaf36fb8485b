import { gunzipSync } from "node:zlib";
import type { NextRequest } from "next/server";
import { readBodyUpTo } from "@/server/limited-body";
import { AppError } from "@/server/errors";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import {
  TRACING_MAX_BODY_BYTES,
  TRACING_OTLP_ERRORS_NAMED,
  TRACING_OTLP_MAX_INFLATED_BYTES,
} from "@/server/services/tracing/limits";
import type { OtlpOutcome } from "@/server/services/tracing/otel";
import {
  decodeJsonRequest,
  decodeProtobufRequest,
  encodeJsonResponse,
  encodeProtobufResponse,
  OtlpDecodeError,
  type OtlpSpan,
  type PartialSuccess,
} from "@/server/services/tracing/otlp-decode";
import { jsonResponse } from "./responses";

// OTLP/HTTP's wire rules (opentelemetry-proto's docs/specification.md): a protobuf or JSON
// ExportTraceServiceRequest, gzip allowed (exporters compress by default), answered in the
// request's own encoding.

export type OtlpEncoding = "protobuf" | "json";

function encodingOf(request: NextRequest): OtlpEncoding {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-protobuf") return "protobuf";
  if (type === "application/json") return "json";
  throw new AppError(
    "unsupported_media_type",
    "Content-Type must be application/x-protobuf or application/json (OTLP/HTTP)",
  );
}

const tooLarge = (max: number, what: string) =>
  new AppError("payload_too_large", `The ${what} body is larger than ${max} bytes`);

/** The request's bytes, inflated when gzip (bounded: a small body cannot expand without end). */
async function bodyOf(request: NextRequest): Promise<Buffer> {
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "" && encoding !== "gzip")
    throw new AppError(
      "unsupported_media_type",
      `Content-Encoding ${encoding} is not accepted: send gzip or no encoding`,
    );
  const body = await readBodyUpTo(request, TRACING_MAX_BODY_BYTES);
  if (body === null) throw tooLarge(TRACING_MAX_BODY_BYTES, "request");
  if (encoding !== "gzip") return body;
  try {
    return gunzipSync(body, { maxOutputLength: TRACING_OTLP_MAX_INFLATED_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw tooLarge(TRACING_OTLP_MAX_INFLATED_BYTES, "inflated");
    throw new AppError("bad_request", "The body is not valid gzip");
  }
}

/** The export's spans and the encoding to answer in: 415, 413 or 400 when it is none. */
export async function readOtlpExport(
  request: NextRequest,
): Promise<{ spans: OtlpSpan[]; encoding: OtlpEncoding }> {
  const encoding = encodingOf(request);
  const body = await bodyOf(request);
  try {
    const spans =
      encoding === "protobuf"
        ? decodeProtobufRequest(body)
        : decodeJsonRequest(body.toString("utf8"));
    return { spans, encoding };
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw new AppError("bad_request", error.message);
    throw error;
  }
}

/** 200 with an ExportTraceServiceResponse; partial_success counts and names the refused spans. */
export function otlpAnswer(encoding: OtlpEncoding, outcome: OtlpOutcome, requestId: string) {
  const { rejected } = outcome;
  const partial: PartialSuccess | null = rejected.length
    ? {
        rejectedSpans: rejected.length,
        errorMessage: `${rejected.length} span(s) refused, the others stored: ${rejected
          .slice(0, TRACING_OTLP_ERRORS_NAMED)
          .map((r) => `span ${r.spanId || "?"}: ${r.reason}`)
          .join("; ")}${rejected.length > TRACING_OTLP_ERRORS_NAMED ? "; ..." : ""}`,
      }
    : null;
  if (encoding === "json") return jsonResponse(encodeJsonResponse(partial), 200, requestId);
  return new Response(Buffer.from(encodeProtobufResponse(partial)), {
    status: 200,
    headers: { "content-type": "application/x-protobuf", [REQUEST_ID_HEADER]: requestId },
  });
}
