import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { slackWorkspaceTokenExists } from "@/server/services/agent-auth/tokens";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.slackExists, ({ db, actor }) => slackWorkspaceTokenExists(db, actor)),
});
