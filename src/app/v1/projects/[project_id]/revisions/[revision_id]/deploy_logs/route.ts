import { deployLogEndpoints as e } from "@/server/rest/endpoints/deploy-logs";
import { methods, route } from "@/server/rest/route";
import { queryRevisionLogs } from "@/server/services/revisions/logs-query";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.revisionDeploy, ({ db, actor, params, body }) =>
    queryRevisionLogs(db, actor, params.project_id, params.revision_id, "deploy", body),
  ),
});
