import { z } from "zod";
import { uuid } from "./common";
import { previewOutcome } from "./previews";

// Code-host webhooks (build on push). Only the members Hangar reads are checked; others pass.

export const webhookParams = z.object({ integration_id: uuid });

export const pushEvent = z
  .looseObject({
    ref: z.string().min(1),
    after: z.string().regex(/^[0-9a-f]{7,64}$/i, "after must be a commit sha"),
    created: z.boolean().optional(),
    deleted: z.boolean().optional(),
    repository: z.looseObject({ html_url: z.string().min(1) }),
  })
  .meta({
    id: "CodehostPushEvent",
    description:
      "A push event as the code host sends it, signed with X-Hub-Signature-256 (sha256=HMAC of the raw body with the integration's webhook secret), named by X-GitHub-Event or X-Codehost-Event and identified by X-GitHub-Delivery or X-Codehost-Delivery.",
  });
export type PushEvent = z.infer<typeof pushEvent>;

export const webhookReceipt = z
  .object({
    deliveries: z.array(uuid).meta({ description: "Ids of the revisions this delivery created" }),
    previews: z.array(previewOutcome).optional().meta({
      description: "pull_request deliveries only: what happened to each preview (contract 5.6)",
    }),
  })
  .meta({ id: "WebhookReceipt" });
export type WebhookReceipt = z.infer<typeof webhookReceipt>;
