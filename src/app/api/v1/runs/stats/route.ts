import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { runStats } from "@/server/services/tracing/stats";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  POST: route(e.runStats, ({ db, actor, body }) => runStats(db, actor, body)),
});
