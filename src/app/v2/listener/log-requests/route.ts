import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { claimLogRequests } from "@/server/services/listeners/log-requests";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.claimLogRequests, ({ db, listener, body, signal }) =>
    claimLogRequests(db, listener, body, signal),
  ),
});
