import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { waitForFlow } from "@/server/services/agent-auth/wait";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.wait, ({ db, actor, params, query, signal }) =>
    waitForFlow(db, actor, params.auth_id, query.timeout, signal),
  ),
});
