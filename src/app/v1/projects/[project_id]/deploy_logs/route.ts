import { deployLogEndpoints as e } from "@/server/rest/endpoints/deploy-logs";
import { methods, route } from "@/server/rest/route";
import { queryRuntimeLogs } from "@/server/services/runtime/logs";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.deploy, ({ db, actor, params, body, signal }) =>
    queryRuntimeLogs(db, actor, params.project_id, body, signal),
  ),
});
