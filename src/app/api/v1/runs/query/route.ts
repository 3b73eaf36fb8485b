import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { queryRuns } from "@/server/services/tracing/runs-read";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.queryRuns, ({ db, actor, body }) => queryRuns(db, actor, body)),
});
