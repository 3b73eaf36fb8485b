import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { deleteToken } from "@/server/services/agent-auth/tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  DELETE: route(e.deleteToken, ({ db, actor, params }) => deleteToken(db, actor, params.token_id)),
});
