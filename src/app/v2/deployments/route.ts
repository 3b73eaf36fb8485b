import { deploymentEndpoints as e } from "@/server/rest/endpoints/deployments";
import { methods, route } from "@/server/rest/route";
import { createDeployment } from "@/server/services/deployments/create";
import { bulkDeleteDeployments } from "@/server/services/deployments/delete";
import { listDeploymentsJson } from "@/server/services/deployments/list";
import { jsonTextResponse } from "@/server/rest/responses";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.list, async ({ db, actor, query, requestId }) =>
    jsonTextResponse(await listDeploymentsJson(db, actor, query), 200, requestId),
  ),
  POST: route(e.create, ({ db, actor, body, signal }) => createDeployment(db, actor, body, signal)),
  DELETE: route(e.bulkDelete, async ({ db, actor, query }) => {
    const result = await bulkDeleteDeployments(db, actor, query.deployment_ids);
    return { $status: result.results.every((r) => r.status === 204) ? 200 : 207, body: result };
  }),
});
