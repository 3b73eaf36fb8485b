import { Readable } from "node:stream";
import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route, type RouteHandler } from "@/server/rest/route";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import {
  openAttachment,
  openSignedAttachment,
  type AttachmentFile,
} from "@/server/services/tracing/attachments";

/** Whatever type it was sent as, never rendered on Hangar's origin. */
function download(file: AttachmentFile, name: string, requestId: string): Response {
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

const withKey = route(e.readRunAttachment, async ({ db, actor, params, requestId }) =>
  download(await openAttachment(db, actor, params.run_id, params.name), params.name, requestId),
);

// A presigned_url authorises itself: the SDKs fetch it without their API key.
const signed = route(
  { ...e.readRunAttachment, auth: "public" },
  async ({ db, params, query, requestId }) => {
    const file = await openSignedAttachment(db, {
      runId: params.run_id,
      name: params.name,
      workspace: query.workspace ?? null,
      expires: query.expires ?? null,
      signature: query.signature ?? null,
    });
    return download(file, params.name, requestId);
  },
);

const byKeyOrSignature: RouteHandler = (req, ctx) =>
  req.nextUrl.searchParams.has("signature") ? signed(req, ctx) : withKey(req, ctx);

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({ GET: byKeyOrSignature });
