import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { getRevision } from "@/server/services/revisions/history";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.get, ({ db, actor, params }) =>
    getRevision(db, actor, params.deployment_id, params.revision_id),
  ),
});
