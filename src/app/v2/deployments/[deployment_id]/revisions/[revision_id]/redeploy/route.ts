import { withEtag } from "@/server/rest/etag";
import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { redeployRevision } from "@/server/services/revisions/history";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.redeploy, async ({ db, actor, params }) =>
    withEtag(await redeployRevision(db, actor, params.deployment_id, params.revision_id)),
  ),
});
