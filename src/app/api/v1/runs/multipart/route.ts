import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { batchAnswer } from "@/server/rest/tracing-body";
import { readTracingMultipart } from "@/server/rest/tracing-multipart";
import { ingestBatch } from "@/server/services/tracing/batch";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.ingestMultipart, async ({ db, actor, request }) => {
    const parsed = await readTracingMultipart(request);
    const outcome = await ingestBatch(db, actor, parsed);
    return batchAnswer({ ...outcome, issues: [...parsed.issues, ...outcome.issues] });
  }),
});
