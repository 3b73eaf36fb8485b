import { codehostIntegrationEndpoints as e } from "@/server/rest/endpoints/codehost-integrations";
import { methods, route } from "@/server/rest/route";
import {
  deleteCodehostIntegration,
  getCodehostIntegration,
} from "@/server/services/codehost-integrations";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.get, ({ db, actor, params }) =>
    getCodehostIntegration(db, actor, params.integration_id),
  ),
  DELETE: route(e.delete, ({ db, actor, params }) =>
    deleteCodehostIntegration(db, actor, params.integration_id),
  ),
});
