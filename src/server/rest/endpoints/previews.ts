import { deployment, deploymentIdParams } from "@/schemas/deployments";
import { approvePreviewBody } from "@/schemas/previews";
import { defineEndpoint } from "../endpoint";

export const previewEndpoints = {
  approve: defineEndpoint({
    method: "POST",
    path: "/v2/deployments/{deployment_id}/preview/approve",
    operationId: "approvePreview",
    summary: "Approve a fork preview's head commit",
    description:
      "Editor. The preview of a pull request from a fork runs with its own secrets only at the head commit an editor approved: send the head_sha you reviewed. It becomes the preview's approved_sha and a revision of it is cut with the preview's secrets (none when it has none). A later commit from the fork is built without secrets until approved again. 400 for a deployment that is not a fork's preview; 409 when head_sha is not the preview's head (the pull request moved on) or it is being deleted.",
    tag: "Deployments",
    params: deploymentIdParams,
    body: approvePreviewBody,
    response: deployment,
    status: 200,
    errors: [400, 403, 404, 409, 413, 415],
    headers: { etag: true },
  }),
};
