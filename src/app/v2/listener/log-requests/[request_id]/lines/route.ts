import { listenerProtocolEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { postFollowLines } from "@/server/services/listeners/log-follow";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  POST: route(e.followLines, ({ db, listener, params, body }) =>
    postFollowLines(db, listener, params.request_id, body),
  ),
});
