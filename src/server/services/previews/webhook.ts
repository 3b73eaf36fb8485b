import type { PreviewsWebhook } from "@/schemas/previews";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { findDeployment } from "../deployments/find";

// What the previews switch needs to know of the pull-request webhook: whether the deployment's
// code-host integration can receive it (a webhook secret is set) and when a pull_request delivery
// last arrived (codehost-webhooks.ts records every delivery).

/** The pull-request webhook of a deployment's integration (404 for another workspace's). */
export async function readPreviewsWebhook(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
): Promise<PreviewsWebhook> {
  const deployment = await findDeployment(db, actor, deploymentId);
  if (!deployment.integrationId) return { state: "no_integration", last_delivery_at: null };
  const integration = await db.codehostIntegration.findUnique({
    where: { id: deployment.integrationId },
    select: { webhookSecretEncrypted: true },
  });
  const last = await db.webhookDelivery.findFirst({
    where: { integrationId: deployment.integrationId, event: "pull_request" },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  return {
    state: !integration?.webhookSecretEncrypted
      ? "no_secret"
      : last
        ? "receiving"
        : "no_deliveries",
    last_delivery_at: last?.createdAt.toISOString() ?? null,
  };
}
