import { listenerEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { deleteListener, getListener, patchListener } from "@/server/services/listeners/manage";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.get, ({ db, actor, params }) => getListener(db, actor, params.listener_id)),
  PATCH: route(e.patch, ({ db, actor, params, body }) =>
    patchListener(db, actor, params.listener_id, body),
  ),
  DELETE: route(e.delete, ({ db, actor, params }) => deleteListener(db, actor, params.listener_id)),
});
