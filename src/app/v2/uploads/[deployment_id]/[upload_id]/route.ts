import { deploymentEndpoints as e } from "@/server/rest/endpoints/deployments";
import { methods, route } from "@/server/rest/route";
import { acceptUpload } from "@/server/services/uploads";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  PUT: route(e.upload, ({ db, params, query, request }) =>
    acceptUpload(db, {
      deploymentId: params.deployment_id,
      uploadId: params.upload_id,
      expires: query.expires ?? null,
      signature: query.signature ?? null,
      headers: request.headers,
      body: request.body as never,
    }),
  ),
});
