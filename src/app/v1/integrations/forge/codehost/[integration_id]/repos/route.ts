import { codehostIntegrationEndpoints as e } from "@/server/rest/endpoints/codehost-integrations";
import { methods, route } from "@/server/rest/route";
import { listIntegrationRepositories } from "@/server/services/codehost-repos";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listRepositories, ({ db, actor, params, signal }) =>
    listIntegrationRepositories(db, actor, params.integration_id, signal),
  ),
});
