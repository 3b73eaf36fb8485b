import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import {
  createConnection,
  deleteConnections,
  listConnections,
} from "@/server/services/agent-auth/connections";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listConnections, ({ db, actor, params }) =>
    listConnections(db, actor, params.agent_id),
  ),
  POST: route(e.createConnection, ({ db, actor, params, body }) =>
    createConnection(db, actor, params.agent_id, body.oauth_token_id),
  ),
  DELETE: route(e.deleteConnections, ({ db, actor, params }) =>
    deleteConnections(db, actor, params.agent_id),
  ),
});
