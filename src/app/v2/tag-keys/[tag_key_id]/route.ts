import { tagEndpoints as e } from "@/server/rest/endpoints/tags";
import { methods, route } from "@/server/rest/route";
import { deleteTagKey } from "@/server/services/tags";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  DELETE: route(e.deleteKey, ({ db, actor, params }) => deleteTagKey(db, actor, params.tag_key_id)),
});
