import { revisionEndpoints as e } from "@/server/rest/endpoints/revisions";
import { methods, route } from "@/server/rest/route";
import { interruptRevision } from "@/server/services/revisions/interrupt";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.interrupt, ({ db, actor, params }) =>
    interruptRevision(db, actor, params.deployment_id, params.revision_id),
  ),
});
