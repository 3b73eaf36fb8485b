import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { listenerRuntimeTargets } from "@/server/services/listeners/runtime";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.runtimeTargets, ({ db, listener, body }) =>
    listenerRuntimeTargets(db, listener, body.deployment_ids),
  ),
});
