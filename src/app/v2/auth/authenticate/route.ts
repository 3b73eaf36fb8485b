import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { authenticate } from "@/server/services/agent-auth/authenticate";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.authenticate, ({ db, actor, body, origin }) =>
    authenticate(db, actor, body, origin),
  ),
});
