import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { updateTokenMetadata } from "@/server/services/agent-auth/tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  PATCH: route(e.updateTokenMetadata, ({ db, actor, params, body }) =>
    updateTokenMetadata(db, actor, params.token_id, body),
  ),
});
