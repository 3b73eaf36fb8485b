import { createHmac } from "node:crypto";
import type { SourceRevisionConfig } from "@/schemas/deployments";
import { pullRequestEvent } from "@/schemas/previews";
import { pushEvent, type WebhookReceipt } from "@/schemas/webhooks";
import { constantTimeEqual, decrypt, sha256Hex } from "@/server/crypto";
import type { Db, DbClient } from "@/server/db";
import { AppError, invalidField, notFound } from "@/server/errors";
import { sameRepo } from "@/server/integrations/codehost/repo-url";
import { parseJson, parseOrThrow } from "@/server/validation";
import { recordAudit } from "./audit/record";
import { lockedTransaction } from "./deployments/find";
import { cutRevisionAtCommit } from "./deployments/revisions-cut";
import { receivePullRequest } from "./previews/pull-request";

// Build on push: a signed push to a branch cuts a revision on every deployment of that
// repository and branch with build_on_push on, once per delivery.

const unauthorized = (message: string) => new AppError("unauthorized", message);

/** sha256=<hex HMAC of the raw body's bytes>, compared in constant time. */
export function signatureOf(secret: string, rawBody: Buffer | string): string {
  const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  return `sha256=${createHmac("sha256", secret).update(bytes).digest("hex")}`;
}

/**
 * The delivery id as stored: whole when it fits the index comfortably, else its SHA-256, so two
 * long ids that share a prefix stay two deliveries.
 */
export function storedDeliveryId(deliveryId: string): string {
  return deliveryId.length <= 128 ? deliveryId : `sha256:${sha256Hex(deliveryId)}`;
}

const header = (headers: Headers, ...names: string[]) =>
  names.map((n) => headers.get(n)).find((v) => v != null && v !== "") ?? null;

export async function receiveCodehostWebhook(
  db: Db,
  integrationId: string,
  headers: Headers,
  rawBody: Buffer,
): Promise<WebhookReceipt> {
  const integration = await db.codehostIntegration.findUnique({ where: { id: integrationId } });
  if (!integration) throw notFound(`Integration ${integrationId} not found.`);
  const signature = headers.get("x-hub-signature-256");
  if (!signature) throw unauthorized("Missing X-Hub-Signature-256 header");
  if (!integration.webhookSecretEncrypted) {
    throw unauthorized("This integration has no webhook secret: set one to receive webhooks");
  }
  const expected = signatureOf(decrypt(integration.webhookSecretEncrypted), rawBody);
  if (!constantTimeEqual(signature, expected)) throw unauthorized("Invalid webhook signature");

  const event = header(headers, "x-codehost-event", "x-github-event");
  if (!event) throw invalidField(["header", "x-github-event"], "Field required", "missing");
  const deliveryId = header(headers, "x-codehost-delivery", "x-github-delivery");
  if (!deliveryId) throw invalidField(["header", "x-github-delivery"], "Field required", "missing");
  if (event === "pull_request") {
    const pr = parseOrThrow("body", pullRequestEvent, parseJson(rawBody.toString("utf8")));
    return receiveDelivery(
      db,
      integrationId,
      deliveryId,
      event,
      { deliveries: [], previews: [] },
      (tx) =>
        receivePullRequest(tx, integrationId, integration.organizationId, pr).then((r) => ({
          deliveries: r.revisionIds,
          previews: r.previews,
        })),
    );
  }
  if (event !== "push") return { deliveries: [] };

  const push = parseOrThrow("body", pushEvent, parseJson(rawBody.toString("utf8")));
  const storedId = storedDeliveryId(deliveryId);

  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.createMany({
      data: [{ integrationId, deliveryId: storedId, event }],
      skipDuplicates: true,
    });
    // A redelivery, a tag, a new or a deleted branch: nothing to build.
    const isBranch = push.ref.startsWith("refs/heads/");
    if (count === 0 || !isBranch || push.created || push.deleted) return { deliveries: [] };
    const branch = push.ref.slice("refs/heads/".length);

    const candidates = await tx.deployment.findMany({
      where: {
        integrationId,
        source: "codehost",
        status: { not: "AWAITING_DELETE" },
        sourceConfig: { path: ["build_on_push"], equals: true },
      },
      orderBy: { createdAt: "asc" },
    });
    const revisionIds: string[] = [];
    for (const deployment of candidates) {
      const config = deployment.sourceRevisionConfig as SourceRevisionConfig;
      const ref = config.repo_ref ?? "";
      if (!deployment.repoUrl || !sameRepo(deployment.repoUrl, push.repository.html_url)) continue;
      if (ref !== branch && ref !== push.ref) continue;
      revisionIds.push(
        await cutPushRevision(tx, deployment.id, push.after, integration.organizationId),
      );
    }
    await tx.webhookDelivery.update({
      where: { integrationId_deliveryId: { integrationId, deliveryId: storedId } },
      data: { revisionIds },
    });
    return { deliveries: revisionIds };
  });
}

/**
 * Records the delivery and runs `work` once per delivery id, in one transaction: a redelivery
 * answers `repeated` and changes nothing.
 */
async function receiveDelivery(
  db: Db,
  integrationId: string,
  deliveryId: string,
  event: string,
  repeated: WebhookReceipt,
  work: (tx: DbClient) => Promise<WebhookReceipt>,
): Promise<WebhookReceipt> {
  const storedId = storedDeliveryId(deliveryId);
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.createMany({
      data: [{ integrationId, deliveryId: storedId, event }],
      skipDuplicates: true,
    });
    if (count === 0) return repeated;
    const receipt = await work(tx);
    await tx.webhookDelivery.update({
      where: { integrationId_deliveryId: { integrationId, deliveryId: storedId } },
      data: { revisionIds: receipt.deliveries },
    });
    return receipt;
  }, lockedTransaction);
}

/**
 * A revision of the deployment's current configuration, pinned to the pushed commit. The
 * integration's organization owns every deployment that uses it.
 */
async function cutPushRevision(
  tx: DbClient,
  deploymentId: string,
  sha: string,
  organizationId: string,
): Promise<string> {
  const { row, revision } = await cutRevisionAtCommit(tx, deploymentId, sha);
  await recordAudit(
    tx,
    { organizationId, workspaceId: row.workspaceId },
    {
      action: "deployment.push",
      targetType: "deployment",
      targetId: row.id,
      data: { revision: revision.number, commit: sha },
    },
  );
  return revision.id;
}
