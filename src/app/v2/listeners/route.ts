import { listenerEndpoints as e } from "@/server/rest/endpoints/listeners";
import { methods, route } from "@/server/rest/route";
import { createListener, listListeners } from "@/server/services/listeners/manage";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.list, ({ db, actor, query }) => listListeners(db, actor, query)),
  POST: route(e.create, ({ db, actor, body }) => createListener(db, actor, body)),
});
