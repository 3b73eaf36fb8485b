import { z } from "zod";
import { buildContextParams, buildContextQuery } from "@/schemas/build-contexts";
import { defineEndpoint } from "../endpoint";

export const buildContextEndpoints = {
  fetch: defineEndpoint({
    method: "GET",
    path: "/v2/build-contexts/{context_id}",
    operationId: "fetchBuildContext",
    summary: "Fetch a Kubernetes build's context from its signed URL",
    description:
      "For the build Job of `HANGAR_BUILDER=kubernetes` (README, Builds): authorised by its signature, not an API key. Answers the prepared build folder as a gzipped tar, once: a second GET (also while the first is streaming) 409. Expired or altered URLs answer 403; a context that is unknown or already dropped (its build ended) 404.",
    tag: "Builds",
    auth: "public",
    params: buildContextParams,
    query: buildContextQuery,
    response: z.string().meta({ description: "A gzipped tar of the build folder" }),
    responseType: "application/gzip",
    status: 200,
    errors: [403, 404, 409],
  }),
};
