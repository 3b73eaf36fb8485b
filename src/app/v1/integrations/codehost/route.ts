import { codehostIntegrationEndpoints as e } from "@/server/rest/endpoints/codehost-integrations";
import { methods, route } from "@/server/rest/route";
import { createCodehostIntegration } from "@/server/services/codehost-integrations";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.create, ({ db, actor, body }) => createCodehostIntegration(db, actor, body)),
});
