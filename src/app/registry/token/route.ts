import { registryEndpoints as e } from "@/server/rest/endpoints/registry";
import { methods, route } from "@/server/rest/route";
import { issueRegistryToken } from "@/server/services/registry/token-endpoint";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.token, ({ db, query, headers, request }) =>
    issueRegistryToken(db, {
      authorization: headers.get("authorization"),
      service: query.service,
      scopes: request.nextUrl.searchParams.getAll("scope"),
    }),
  ),
});
