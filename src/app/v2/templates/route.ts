import { templateEndpoints as e } from "@/server/rest/endpoints/templates";
import { methods, route } from "@/server/rest/route";
import { listTemplates } from "@/server/services/templates";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.list, async () => listTemplates()),
});
