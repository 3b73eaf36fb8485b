import { Readable } from "node:stream";
import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import { openAttachment } from "@/server/services/tracing/attachments";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readRunAttachment, async ({ db, actor, params, requestId }) => {
    const file = await openAttachment(db, actor, params.run_id, params.name);
    // Whatever type it was sent as, never rendered on Hangar's origin.
    return new Response(Readable.toWeb(file.body) as ReadableStream, {
      headers: {
        "Content-Type": file.mimeType,
        "Content-Length": String(file.size),
        "Content-Disposition": `attachment; filename="${params.name}"`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Cache-Control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  }),
});
