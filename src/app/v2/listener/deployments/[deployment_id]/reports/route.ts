import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { reportOnDeletion } from "@/server/services/listeners/deletion-report";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.reportDeletion, ({ db, listener, params, body }) =>
    reportOnDeletion(db, listener, params.deployment_id, body),
  ),
});
