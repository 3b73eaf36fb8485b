import { AppError } from "@/server/errors";

// Request bodies are taken as sent: Hangar advertises no compression (the tracing SDK reads
// GET /api/v1/info and compresses only when told it may). Only OTLP's route inflates gzip.

/** A body sent with a Content-Encoding other than identity → 415 (never a JSON parse error). */
export function refuseEncodedBody(headers: Headers): void {
  const encoding = (headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "")
    throw new AppError(
      "unsupported_media_type",
      `Content-Encoding ${encoding} is not accepted: send the body uncompressed`,
    );
}
