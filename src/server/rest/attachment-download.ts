import { Readable } from "node:stream";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import type { AttachmentFile } from "@/server/services/tracing/attachments";

/**
 * A run attachment's bytes (with its key, or at its presigned_url): whatever type it was sent
 * as, always a download, never rendered on Hangar's origin.
 */
export function attachmentResponse(
  file: AttachmentFile,
  name: string,
  requestId: string,
): Response {
  return new Response(Readable.toWeb(file.body) as ReadableStream, {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cache-Control": "no-store",
      [REQUEST_ID_HEADER]: requestId,
    },
  });
}
