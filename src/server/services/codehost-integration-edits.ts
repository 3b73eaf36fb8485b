import { randomBytes } from "node:crypto";
import type {
  CodehostIntegrationDetail,
  UpdateCodehostIntegrationInput,
} from "@/schemas/codehost-integrations";
import { requireOrgRole, type Actor } from "@/server/auth/actor";
import { encrypt } from "@/server/crypto";
import type { Db } from "@/server/db";
import { badRequest } from "@/server/errors";
import { refuseLiteralAddress } from "@/server/outbound/creation-check";
import { recordAudit } from "./audit/record";
import { verifyCredentials } from "./codehost-credentials";
import {
  findCodehostIntegration,
  refuseDuplicateName,
  storedCredentials,
} from "./codehost-integrations";

// Managing an integration after registering it (issue 17): the dashboard's detail, edits,
// token rotation and the webhook secret. Every change is checked against the code host first.

/** The organization's integrations with what the dashboard shows of each, oldest first. */
export async function listCodehostIntegrationDetails(
  db: Db,
  actor: Actor,
): Promise<CodehostIntegrationDetail[]> {
  const rows = await db.codehostIntegration.findMany({
    where: { organizationId: actor.organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: {
      deployments: {
        select: { id: true, name: true, workspaceId: true },
        orderBy: { name: "asc" },
      },
    },
  });
  // Deployments of other workspaces are counted, not named: the caller may not see them.
  const here = (d: { workspaceId: string }) => d.workspaceId === actor.workspaceId;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    api_base_url: row.apiBaseUrl,
    auth: row.tokenEncrypted ? "token" : "app",
    app_id: row.appId,
    installation_id: row.installationId,
    has_webhook_secret: row.webhookSecretEncrypted != null,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    last_check_error: row.lastCheckError,
    used_by: row.deployments.filter(here).map(({ id, name }) => ({ id, name })),
    used_elsewhere: row.deployments.filter((d) => !here(d)).length,
    created_at: row.createdAt.toISOString(),
  }));
}

/** Renames an integration or points it at another URL (its credentials must work there). */
export async function updateCodehostIntegration(
  db: Db,
  actor: Actor,
  input: UpdateCodehostIntegrationInput,
): Promise<void> {
  requireOrgRole(actor, "admin");
  const row = await findCodehostIntegration(db, actor, input.integration_id);
  const apiBaseUrl = input.api_base_url.replace(/\/+$/, "");
  await refuseDuplicateName(db, actor, input.name, row.id);
  if (apiBaseUrl !== row.apiBaseUrl) {
    refuseLiteralAddress(apiBaseUrl, ["api_base_url"]);
    const credentials = storedCredentials(row);
    await verifyCredentials(apiBaseUrl, credentials, {
      credential: ["api_base_url"],
      url: ["api_base_url"],
    });
  }
  const changes: Record<string, { from: string; to: string }> = {};
  if (input.name !== row.name) changes.name = { from: row.name, to: input.name };
  if (apiBaseUrl !== row.apiBaseUrl)
    changes.api_base_url = { from: row.apiBaseUrl, to: apiBaseUrl };
  if (Object.keys(changes).length === 0) return;
  await db.$transaction(async (tx) => {
    await tx.codehostIntegration.update({
      where: { id: row.id },
      data: {
        name: input.name,
        apiBaseUrl,
        ...(changes.api_base_url ? { lastCheckedAt: new Date(), lastCheckError: null } : {}),
      },
    });
    await recordAudit(tx, actor, {
      action: "codehost_integration.update",
      targetType: "codehost_integration",
      targetId: row.id,
      data: { name: input.name, changes },
    });
  });
}

/** Replaces a token integration's token with one the code host accepts. */
export async function rotateCodehostToken(
  db: Db,
  actor: Actor,
  integrationId: string,
  token: string,
): Promise<void> {
  requireOrgRole(actor, "admin");
  const row = await findCodehostIntegration(db, actor, integrationId);
  if (!row.tokenEncrypted) {
    throw badRequest(
      `Integration "${row.name}" uses app credentials: it has no token to rotate. Register the app again to change its key.`,
    );
  }
  await verifyCredentials(
    row.apiBaseUrl,
    { kind: "token", token },
    {
      credential: ["token"],
      url: ["token"],
    },
  );
  await db.$transaction(async (tx) => {
    await tx.codehostIntegration.update({
      where: { id: row.id },
      data: { tokenEncrypted: encrypt(token), lastCheckedAt: new Date(), lastCheckError: null },
    });
    await recordAudit(tx, actor, {
      action: "codehost_integration.rotate_token",
      targetType: "codehost_integration",
      targetId: row.id,
      data: { name: row.name },
    });
  });
}

/** A new random webhook secret, stored encrypted and returned this once. */
export async function regenerateWebhookSecret(
  db: Db,
  actor: Actor,
  integrationId: string,
): Promise<{ secret: string }> {
  requireOrgRole(actor, "admin");
  const row = await findCodehostIntegration(db, actor, integrationId);
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  await db.$transaction(async (tx) => {
    await tx.codehostIntegration.update({
      where: { id: row.id },
      data: { webhookSecretEncrypted: encrypt(secret) },
    });
    await recordAudit(tx, actor, {
      action: "codehost_integration.webhook_secret",
      targetType: "codehost_integration",
      targetId: row.id,
      data: { name: row.name, replaced: row.webhookSecretEncrypted != null },
    });
  });
  return { secret };
}
