import { runtimeEndpoints as e } from "@/server/rest/endpoints/runtime";
import { methods, route } from "@/server/rest/route";
import { readRuntimeState } from "@/server/services/runtime/state";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.state, ({ db, actor, params }) => readRuntimeState(db, actor, params.deployment_id)),
});
