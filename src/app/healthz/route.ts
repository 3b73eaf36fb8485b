import { serviceEndpoints as e } from "@/server/rest/endpoints/service";
import { methods, route } from "@/server/rest/route";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.healthz, async () => ({ status: "ok" as const })),
});
