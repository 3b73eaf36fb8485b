import { tagEndpoints as e } from "@/server/rest/endpoints/tags";
import { methods, route } from "@/server/rest/route";
import { createTagKey, listTagKeys } from "@/server/services/tags";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listKeys, ({ db, actor }) => listTagKeys(db, actor)),
  POST: route(e.createKey, ({ db, actor, body }) => createTagKey(db, actor, body)),
});
