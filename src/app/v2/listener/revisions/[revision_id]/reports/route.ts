import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { reportOnRevision } from "@/server/services/listeners/report";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.report, ({ db, listener, params, body }) =>
    reportOnRevision(db, listener, params.revision_id, body),
  ),
});
