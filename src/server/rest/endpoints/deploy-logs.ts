import {
  logEntries,
  logQueryBody,
  projectParams,
  projectRevisionParams,
} from "@/schemas/deploy-logs";
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
    summary: "Read a deployment's deploy log, across its revisions",
    description,
    tag,
    params: projectParams,
    body: logQueryBody,
    response: logEntries,
    status: 200,
    errors: [403, 404],
  }),
};
