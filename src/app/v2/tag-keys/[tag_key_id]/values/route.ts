import { tagEndpoints as e } from "@/server/rest/endpoints/tags";
import { methods, route } from "@/server/rest/route";
import { createTagValue, listTagValues } from "@/server/services/tags";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.listValues, ({ db, actor, params }) => listTagValues(db, actor, params.tag_key_id)),
  POST: route(e.createValue, ({ db, actor, params, body }) =>
    createTagValue(db, actor, params.tag_key_id, body),
  ),
});
