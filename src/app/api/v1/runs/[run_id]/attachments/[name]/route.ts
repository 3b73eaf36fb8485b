import { attachmentResponse } from "@/server/rest/attachment-download";
import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { openAttachment } from "@/server/services/tracing/attachments";

// With the API key only; the keyless presigned_url is served at /api/v1/public/download.
export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readRunAttachment, async ({ db, actor, params, requestId }) =>
    attachmentResponse(
      await openAttachment(db, actor, params.run_id, params.name),
      params.name,
      requestId,
    ),
  ),
});
