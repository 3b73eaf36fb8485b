import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { singleAnswer } from "@/server/rest/tracing-body";
import { ingestRuns } from "@/server/services/tracing/ingest";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.createRun, async ({ db, actor, body }) =>
    singleAnswer(await ingestRuns(db, actor, [{ kind: "post", loc: ["body"], value: body }])),
  ),
});
