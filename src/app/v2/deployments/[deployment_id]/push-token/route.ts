import { registryEndpoints as e } from "@/server/rest/endpoints/registry";
import { methods, route } from "@/server/rest/route";
import { createPushToken, revokePushTokens } from "@/server/services/registry/push-tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.createPushToken, ({ db, actor, params }) =>
    createPushToken(db, actor, params.deployment_id),
  ),
  DELETE: route(e.revokePushTokens, ({ db, actor, params }) =>
    revokePushTokens(db, actor, params.deployment_id),
  ),
});
