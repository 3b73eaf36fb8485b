import { pushEvent, webhookParams, webhookReceipt } from "@/schemas/webhooks";
import { defineEndpoint } from "../endpoint";

export const webhookEndpoints = {
  codehost: defineEndpoint({
    method: "POST",
    path: "/v1/webhooks/codehost/{integration_id}",
    operationId: "receiveCodehostWebhook",
    summary: "Receive a code-host webhook (build on push, pull request previews)",
    description:
      "Needs no API key: authenticated by X-Hub-Signature-256 (401 when missing or wrong). A push to an existing branch creates a revision on every deployment of that repository and branch with build_on_push on; tag pushes, branch creation and deletion, other events and redelivered deliveries create nothing. A pull_request delivery (opened, synchronize, reopened, closed) creates, updates or deletes the preview deployments of that pull request (contract 5.6); its body is a CodehostPullRequestEvent.",
    tag: "Webhooks",
    auth: "public",
    params: webhookParams,
    body: pushEvent,
    response: webhookReceipt,
    status: 202,
    errors: [401, 404],
  }),
};
