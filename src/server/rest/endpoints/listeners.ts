import {
  claimWorkBody,
  claimWorkResponse,
  listenerReportAnswer,
  listenerReportBody,
  listenerRevisionParams,
  createdListener,
  createListenerBody,
  listener,
  listenerPage,
  listenerParams,
  listListenersQuery,
  patchListenerBody,
} from "@/schemas/listeners";
import { defineEndpoint } from "../endpoint";

const selfHosted =
  "Self-hosted installations only (HANGAR_MODE=self_hosted); a managed one answers 403.";

export const listenerEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v2/listeners",
    operationId: "listListeners",
    summary: "List the workspace's listeners",
    description: `Newest first. ${selfHosted}`,
    tag: "Listeners",
    query: listListenersQuery,
    response: listenerPage,
    status: 200,
    errors: [403],
  }),
  create: defineEndpoint({
    method: "POST",
    path: "/v2/listeners",
    operationId: "createListener",
    summary: "Create a listener",
    description: `Answers the listener's token once (workspace admins). ${selfHosted}`,
    tag: "Listeners",
    body: createListenerBody,
    response: createdListener,
    status: 201,
    errors: [403, 409, 413, 415],
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v2/listeners/{listener_id}",
    operationId: "getListener",
    summary: "Read a listener",
    tag: "Listeners",
    params: listenerParams,
    response: listener,
    status: 200,
    errors: [403, 404],
  }),
  patch: defineEndpoint({
    method: "PATCH",
    path: "/v2/listeners/{listener_id}",
    operationId: "patchListener",
    summary: "Change a listener's version or namespaces",
    tag: "Listeners",
    params: listenerParams,
    body: patchListenerBody,
    response: listener,
    status: 200,
    errors: [403, 404, 413, 415],
  }),
  delete: defineEndpoint({
    method: "DELETE",
    path: "/v2/listeners/{listener_id}",
    operationId: "deleteListener",
    summary: "Delete a listener (409 while deployments use it)",
    tag: "Listeners",
    params: listenerParams,
    status: 204,
    errors: [403, 404, 409],
  }),
};

/** The listener protocol: a listener token (Authorization: Bearer) and nothing else. */
export const listenerProtocolEndpoints = {
  claimWork: defineEndpoint({
    method: "POST",
    path: "/v2/listener/work",
    operationId: "claimListenerWork",
    summary: "Long-poll for the next revision to apply (leases it)",
    description:
      "Answers at once with a revision leased to `replica_id`, or after `wait_seconds` with `work: null`. Renew the lease with a report before `lease_expires_at`.",
    tag: "Listener protocol",
    auth: "listener",
    body: claimWorkBody,
    response: claimWorkResponse,
    status: 200,
    errors: [413, 415],
  }),
  report: defineEndpoint({
    method: "POST",
    path: "/v2/listener/revisions/{revision_id}/reports",
    operationId: "reportListenerProgress",
    summary: "Report log lines, renew the lease, or finish a leased revision",
    description:
      "Idempotent per `report_id` (send a retry with the same id). 409 when another replica holds the lease.",
    tag: "Listener protocol",
    auth: "listener",
    params: listenerRevisionParams,
    body: listenerReportBody,
    response: listenerReportAnswer,
    status: 200,
    errors: [404, 409, 413, 415],
  }),
};
