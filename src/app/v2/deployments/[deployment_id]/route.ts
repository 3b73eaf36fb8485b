import { withEtag } from "@/server/rest/etag";
import { deploymentEndpoints as e } from "@/server/rest/endpoints/deployments";
import { methods, route } from "@/server/rest/route";
import { deleteDeployment } from "@/server/services/deployments/delete";
import { patchDeployment } from "@/server/services/deployments/patch";
import { getDeployment } from "@/server/services/deployments/read";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.get, async ({ db, actor, params }) =>
    withEtag(await getDeployment(db, actor, params.deployment_id)),
  ),
  PATCH: route(e.patch, async ({ db, actor, params, body, headers }) =>
    withEtag(
      await patchDeployment(db, actor, params.deployment_id, body, {
        ifMatch: headers.get("if-match"),
      }),
    ),
  ),
  DELETE: route(e.delete, ({ db, actor, params }) =>
    deleteDeployment(db, actor, params.deployment_id),
  ),
});
