import { tagEndpoints as e } from "@/server/rest/endpoints/tags";
import { methods, route } from "@/server/rest/route";
import { deleteTagValue } from "@/server/services/tags";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  DELETE: route(e.deleteValue, ({ db, actor, params }) =>
    deleteTagValue(db, actor, params.tag_key_id, params.tag_value_id),
  ),
});
