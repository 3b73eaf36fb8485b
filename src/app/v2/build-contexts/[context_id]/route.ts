import { Readable } from "node:stream";
import { buildContextEndpoints as e } from "@/server/rest/endpoints/build-contexts";
import { methods, route } from "@/server/rest/route";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import { fetchBuildContext } from "@/server/services/build-contexts";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(e.fetch, async ({ db, params, query, requestId }) => {
    const archive = await fetchBuildContext(db, {
      contextId: params.context_id,
      expires: query.expires ?? null,
      signature: query.signature ?? null,
    });
    return new Response(Readable.toWeb(archive) as ReadableStream, {
      headers: {
        "Content-Type": "application/gzip",
        "Cache-Control": "no-store",
        [REQUEST_ID_HEADER]: requestId,
      },
    });
  }),
});
