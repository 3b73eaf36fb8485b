import { serviceEndpoints as e } from "@/server/rest/endpoints/service";
import { methods, route } from "@/server/rest/route";
import { getServiceInfo } from "@/server/services/service-info";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.info, ({ db }) => getServiceInfo(db)),
});
