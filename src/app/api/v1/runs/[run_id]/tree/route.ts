import { tracingEndpoints as e } from "@/server/rest/endpoints/tracing";
import { methodsOrNotFound } from "@/server/rest/not-found";
import { route } from "@/server/rest/route";
import { readRunTree } from "@/server/services/tracing/trace-tree";

export const { GET, POST, PATCH, PUT, DELETE } = methodsOrNotFound({
  GET: route(e.readRunTree, ({ db, actor, params, query }) =>
    readRunTree(db, actor, params.run_id, query),
  ),
});
