import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { claimWork } from "@/server/services/listeners/work";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.claimWork, ({ db, listener, body, signal }) =>
    claimWork(db, listener, body, signal),
  ),
});
