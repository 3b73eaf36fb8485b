import {
  logEntries,
  logQueryBody,
  projectParams,
  projectRevisionParams,
} from "@/schemas/deploy-logs";
import { runtimeLogQuery, runtimeLogs } from "@/schemas/runtime";
import { defineEndpoint } from "../endpoint";

// The reference deploy client's log routes ("projects" are deployments there).

const tag = "Logs";
const description =
  "Body `{limit, order, offset?, level?, query?, start_time?, end_time?}`. Lines are ordered by id (asc or desc); pass `next_offset` back as `offset` to read on.";

export const deployLogEndpoints = {
  build: defineEndpoint({
    method: "POST",
    path: "/v1/projects/{project_id}/revisions/{revision_id}/build_logs",
    operationId: "queryBuildLogs",
    summary: "Read a revision's build log",
    description,
    tag,
    params: projectRevisionParams,
    body: logQueryBody,
    response: logEntries,
    status: 200,
    errors: [403, 404],
  }),
  revisionDeploy: defineEndpoint({
    method: "POST",
    path: "/v1/projects/{project_id}/revisions/{revision_id}/deploy_logs",
    operationId: "queryRevisionDeployLogs",
    summary: "Read a revision's deploy log",
    description,
    tag,
    params: projectRevisionParams,
    body: logQueryBody,
    response: logEntries,
    status: 200,
    errors: [403, 404],
  }),
  deploy: defineEndpoint({
    method: "POST",
    path: "/v1/projects/{project_id}/deploy_logs",
    operationId: "queryDeployLogs",
    summary: "Read what the deployment's agent server prints (runtime logs, from the cluster)",
    description:
      "The lines every replica of the active deployment's server and queue workers printed (also their previous run after a restart), read from the cluster when asked: Hangar keeps no copy. Body as the other log routes, plus `pod` (one replica). `id`s are opaque and stable: de-duplicate by them. Ascending pages always carry a `next_offset` (more may be printed). 409 when nothing runs (dry run, nothing deployed yet), 502 when the cluster cannot be read. A deployment on a listener is read by the listener in its cluster when asked: 503 when that listener is offline or does not answer within HANGAR_LISTENER_LOG_WAIT_SECONDS. Hangar's own deploy log is at the revision's deploy_logs.",
    tag,
    params: projectParams,
    body: runtimeLogQuery,
    response: runtimeLogs,
    status: 200,
    errors: [403, 404, 409, 502, 503],
  }),
};
