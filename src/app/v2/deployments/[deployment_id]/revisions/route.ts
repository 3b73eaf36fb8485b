import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { listRevisions } from "@/server/services/revisions/history";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.list, ({ db, actor, params, query }) =>
    listRevisions(db, actor, params.deployment_id, query),
  ),
});
