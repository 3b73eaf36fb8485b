import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { listRevisionLogs } from "@/server/services/revisions/logs-list";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.logs, ({ db, actor, params, query }) =>
    listRevisionLogs(db, actor, params.deployment_id, params.revision_id, query),
  ),
});
