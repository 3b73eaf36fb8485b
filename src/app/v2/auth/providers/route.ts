import { oauthProviderEndpoints as e } from "@/server/rest/endpoints/oauth-providers";
import { methods, route } from "@/server/rest/route";
import { createOAuthProvider, listOAuthProviders } from "@/server/services/oauth-providers";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.list, ({ db, actor }) => listOAuthProviders(db, actor)),
  POST: route(e.create, ({ db, actor, body }) => createOAuthProvider(db, actor, body)),
});
