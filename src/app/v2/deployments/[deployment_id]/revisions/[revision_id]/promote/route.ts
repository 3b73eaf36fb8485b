import { withEtag } from "@/server/rest/etag";
import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { promoteRevision } from "@/server/services/revisions/promote";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.promote, async ({ db, actor, params, body }) =>
    withEtag(await promoteRevision(db, actor, params.deployment_id, params.revision_id, body)),
  ),
});
