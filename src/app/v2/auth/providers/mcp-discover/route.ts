import { agentAuthEndpoints as e } from "@/server/rest/endpoints/agent-auth";
import { methods, route } from "@/server/rest/route";
import { discoverMcpProvider } from "@/server/services/agent-auth/mcp-discover";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.mcpDiscover, ({ db, actor, body, origin }) =>
    discoverMcpProvider(db, actor, body, origin),
  ),
});
