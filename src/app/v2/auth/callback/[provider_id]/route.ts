import { authCallbackRedirect } from "@/server/rest/auth-callback";
import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { completeFlow } from "@/server/services/agent-auth/complete-flow";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: authCallbackRedirect,
  POST: route(e.callbackPost, ({ db, params, body }) => completeFlow(db, params.provider_id, body)),
});
