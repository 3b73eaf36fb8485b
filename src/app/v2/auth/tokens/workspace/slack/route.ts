import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { deleteSlackWorkspaceTokens } from "@/server/services/agent-auth/tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  DELETE: route(e.slackDelete, ({ db, actor }) => deleteSlackWorkspaceTokens(db, actor)),
});
