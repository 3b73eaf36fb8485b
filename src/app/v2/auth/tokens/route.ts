import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { deleteProviderTokens, listTokens } from "@/server/services/agent-auth/tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listTokens, ({ db, actor, query }) => listTokens(db, actor, query)),
  DELETE: route(e.deleteTokens, ({ db, actor, query }) => deleteProviderTokens(db, actor, query)),
});
