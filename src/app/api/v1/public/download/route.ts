import { attachmentResponse } from "@/server/rest/attachment-download";
import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { openSignedAttachment } from "@/server/services/tracing/attachments";

// An attachment's presigned_url: it authorises itself, and the Public download row limits it.
export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.downloadRunAttachment, async ({ db, query, requestId }) =>
    attachmentResponse(await openSignedAttachment(db, query), query.name, requestId),
  ),
});
