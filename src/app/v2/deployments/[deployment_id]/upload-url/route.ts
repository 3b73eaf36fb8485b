import { deploymentEndpoints as e } from "@/server/rest/endpoints/deployments";
import { methods, route } from "@/server/rest/route";
import { createUploadUrl } from "@/server/services/uploads";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.uploadUrl, ({ db, actor, params, origin }) =>
    createUploadUrl(db, actor, params.deployment_id, origin),
  ),
});
