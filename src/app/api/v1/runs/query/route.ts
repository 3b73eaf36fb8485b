import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { jsonTextResponse } from "@/server/rest/responses";
import { route } from "@/server/rest/route";
import { queryRunsJson } from "@/server/services/tracing/runs-read";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.queryRuns, async ({ db, actor, body, requestId, origin }) =>
    jsonTextResponse(await queryRunsJson(db, actor, body, origin), 200, requestId),
  ),
});
