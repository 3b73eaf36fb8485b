import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { otlpAnswer, readOtlpExport } from "@/server/rest/otlp-body";
import { route } from "@/server/rest/route";
import { ingestOtlpSpans } from "@/server/services/tracing/otel";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.exportOtlpTraces, async ({ db, actor, request, headers, requestId }) => {
    const { spans, encoding } = await readOtlpExport(request);
    const outcome = await ingestOtlpSpans(db, actor, spans, headers.get("langsmith-project"));
    return otlpAnswer(encoding, outcome, requestId);
  }),
});
