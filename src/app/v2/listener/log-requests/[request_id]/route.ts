import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { answerLogRequest } from "@/server/services/listeners/log-requests";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.answerLogRequest, ({ db, listener, params, body }) =>
    answerLogRequest(db, listener, params.request_id, body),
  ),
});
