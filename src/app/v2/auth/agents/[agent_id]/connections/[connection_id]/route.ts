import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { deleteConnections } from "@/server/services/agent-auth/connections";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  DELETE: route(e.deleteConnection, async ({ db, actor, params }) => {
    await deleteConnections(db, actor, params.agent_id, params.connection_id);
  }),
});
