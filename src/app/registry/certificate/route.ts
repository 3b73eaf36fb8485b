import { registryEndpoints as e } from "@/server/rest/endpoints/registry";
import { methods, route } from "@/server/rest/route";
import { REQUEST_ID_HEADER } from "@/server/request-id";
import { registryCertificate } from "@/server/services/registry/token-endpoint";

export const { GET, POST, PATCH, PUT, DELETE } = methods({
  GET: route(
    e.certificate,
    async ({ requestId }) =>
      new Response(await registryCertificate(), {
        headers: { "Content-Type": "application/x-pem-file", [REQUEST_ID_HEADER]: requestId },
      }),
  ),
});
