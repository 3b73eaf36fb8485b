import { deploymentParams, runtimeState } from "@/schemas/runtime";
import { defineEndpoint } from "../endpoint";

// What runs: a deployment's live health from its cluster (its logs are at the deploy client's
// POST /v1/projects/{id}/deploy_logs, endpoints/deploy-logs.ts).

export const runtimeEndpoints = {
  state: defineEndpoint({
    method: "GET",
    path: "/v2/deployments/{deployment_id}/runtime_state",
    operationId: "getDeploymentRuntimeState",
    summary: "Read what runs of a deployment, as its cluster reports it",
    description:
      "Ready and desired replicas of the active revision, restarts, the last termination (OOMKilled, Error, Evicted...), recent Warning events and, when not healthy, Kubernetes' reason (CrashLoopBackOff, ImagePullBackOff, Unschedulable...). `running` is false in dry run and before a first deploy; `healthy` is null until observed.",
    tag: "Deployments",
    params: deploymentParams,
    response: runtimeState,
    status: 200,
    errors: [403, 404],
  }),
};
