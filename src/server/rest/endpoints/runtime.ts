import {
  deploymentParams,
  runtimeLogEntry,
  runtimeLogFollowQuery,
  runtimeState,
} from "@/schemas/runtime";
import { z } from "zod";
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
  logStream: defineEndpoint({
    method: "GET",
    path: "/v2/deployments/{deployment_id}/logs/stream",
    operationId: "streamDeploymentLogs",
    summary: "Follow what the deployment's agent server prints, live (server-sent events)",
    description:
      "The cluster's own log follow of every running container of every replica of the active revision's server and queue workers (Hangar keeps no copy): each line as an event `log` whose `id` is the line's id (the same as deploy_logs gives it) and whose `data` is a RuntimeLogEntry, filtered by `level`, `query` and `pod` as deploy_logs filters. Only lines printed from now on, or since `since` (de-duplicate by `id`). At most 200 lines a second (lines from `since` up to the request are not rate-counted) and 1,000 waiting for a slow reader: the rest are counted in an event `dropped` (data: `{count}`). New replicas and restarted containers are followed as they start. Ends when the client goes away; with an event `unauthorized` when the credential ends. 409 when nothing runs, and for a deployment on a listener (read deploy_logs again instead).",
    tag: "Deployments",
    params: deploymentParams,
    query: runtimeLogFollowQuery,
    response: runtimeLogEntry,
    responseType: "text/event-stream",
    longLived: true,
    status: 200,
    errors: [403, 404, 409],
  }),
  logDownload: defineEndpoint({
    method: "GET",
    path: "/v2/deployments/{deployment_id}/logs/download",
    operationId: "downloadDeploymentLogs",
    summary: "Download every runtime log line the filters match, as text",
    description:
      "Every line of every replica's containers (current and previous run, as far back as the cluster keeps them, at most HANGAR_RUNTIME_LOG_LINES per container) that `level`, `query`, `pod` and `start_time` match, oldest first, one line each: `<timestamp> <pod> <container>[ (previous)] <LEVEL> <message>`, harmless and cut as deploy_logs serves them. Streamed; named `<deployment-name>-logs-<UTC time>.txt` (Content-Disposition). 409 when nothing runs, 502/503 as deploy_logs.",
    tag: "Deployments",
    params: deploymentParams,
    query: runtimeLogFollowQuery.omit({ since: true }).extend({
      start_time: runtimeLogFollowQuery.shape.since.meta({
        description: "Only lines printed at or after this time (the Logs tab's time range)",
      }),
    }),
    response: z.string(),
    responseType: "text/plain",
    status: 200,
    errors: [403, 404, 409, 502, 503],
  }),
};
