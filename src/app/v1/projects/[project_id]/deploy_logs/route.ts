import { deployLogEndpoints as e } from "@/server/rest/endpoints/deploy-logs";
import { methods, route } from "@/server/rest/route";
import { queryDeploymentLogs } from "@/server/services/revisions/logs-query";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.deploy, ({ db, actor, params, body }) =>
    queryDeploymentLogs(db, actor, params.project_id, body),
  ),
});
