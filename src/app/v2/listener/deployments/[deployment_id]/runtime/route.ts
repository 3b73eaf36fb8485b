import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { reportListenerRuntime } from "@/server/services/listeners/runtime";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.reportRuntime, ({ db, listener, params, body }) =>
    reportListenerRuntime(db, listener, params.deployment_id, body),
  ),
});
