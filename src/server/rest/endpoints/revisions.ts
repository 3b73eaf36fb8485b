import { deployment, deploymentIdParams } from "@/schemas/deployments";
import { listRevisionsQuery, revision, revisionPage, revisionParams } from "@/schemas/revisions";
import { defineEndpoint } from "../endpoint";

export const revisionEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v2/deployments/{deployment_id}/revisions",
    operationId: "listRevisions",
    summary: "List a deployment's revisions",
    description: "Newest first.",
    tag: "Revisions",
    params: deploymentIdParams,
    query: listRevisionsQuery,
    response: revisionPage,
    status: 200,
    errors: [403, 404],
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v2/deployments/{deployment_id}/revisions/{revision_id}",
    operationId: "getRevision",
    summary: "Get a revision",
    tag: "Revisions",
    params: revisionParams,
    response: revision,
    status: 200,
    errors: [403, 404],
  }),
  redeploy: defineEndpoint({
    method: "POST",
    path: "/v2/deployments/{deployment_id}/revisions/{revision_id}/redeploy",
    operationId: "redeployRevision",
    summary: "Roll back to a revision",
    description: "Cuts a new revision with that revision's configuration.",
    tag: "Revisions",
    params: revisionParams,
    response: deployment,
    status: 200,
    errors: [403, 404],
    headers: { etag: true },
  }),
};
