import { oauthProviderEndpoints as e } from "@/server/rest/endpoints/oauth-providers";
import { methods, route } from "@/server/rest/route";
import {
  deleteOAuthProvider,
  getOAuthProvider,
  updateOAuthProvider,
} from "@/server/services/oauth-providers";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.get, ({ db, actor, params }) => getOAuthProvider(db, actor, params.provider_id)),
  PATCH: route(e.update, ({ db, actor, params, body }) =>
    updateOAuthProvider(db, actor, params.provider_id, body),
  ),
  DELETE: route(e.delete, ({ db, actor, params }) =>
    deleteOAuthProvider(db, actor, params.provider_id),
  ),
});
