import { withEtag } from "@/server/rest/etag";
import { previewEndpoints as e } from "@/server/rest/endpoints/previews";
import { methods, route } from "@/server/rest/route";
import { approvePreview } from "@/server/services/previews/approve";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.approve, async ({ db, actor, params, body }) =>
    withEtag(await approvePreview(db, actor, params.deployment_id, body)),
  ),
});
