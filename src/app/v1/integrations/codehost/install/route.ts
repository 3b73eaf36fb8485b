import { codehostIntegrationEndpoints as e } from "@/server/rest/endpoints/codehost-integrations";
import { methods, route } from "@/server/rest/route";
import { listCodehostInstallations } from "@/server/services/codehost-integrations";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listInstallations, ({ db, actor }) => listCodehostInstallations(db, actor)),
});
