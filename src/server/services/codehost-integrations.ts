import { createPrivateKey } from "node:crypto";
import type { CodehostIntegration as IntegrationRow } from "@/generated/prisma/client";
import type {
  CodehostInstallation,
  CodehostIntegration,
  CreateCodehostIntegrationInput,
} from "@/schemas/codehost-integrations";
import { requireOrgRole, type Actor } from "@/server/auth/actor";
import { decrypt, encrypt } from "@/server/crypto";
import type { Db, DbClient } from "@/server/db";
import { badRequest, conflict, invalidField, notFound } from "@/server/errors";
import type { CodehostClient, CodehostCredentials } from "@/server/integrations/codehost/client";
import { createCodehostClient } from "@/server/integrations/codehost/octokit";
import { refuseLiteralAddress } from "@/server/outbound/creation-check";
import { recordAudit } from "./audit/record";
import { verifyCredentials } from "./codehost-credentials";

const toIntegration = (row: IntegrationRow): CodehostIntegration => ({
  id: row.id,
  installation_id: row.installationId,
  name: row.name,
  api_base_url: row.apiBaseUrl,
  created_at: row.createdAt.toISOString(),
});

/** Either a token or complete app credentials, never both, never a part. */
function credentialsOf(input: CreateCodehostIntegrationInput): CodehostCredentials {
  const app = [input.app_id, input.private_key, input.installation_id];
  const appGiven = app.filter((v) => v != null).length;
  if (input.token && appGiven > 0) {
    throw badRequest(
      "Send either token or app credentials (app_id, private_key, installation_id), not both.",
    );
  }
  if (input.token) return { kind: "token", token: input.token };
  if (appGiven === 0) {
    throw badRequest("Send a token, or app credentials: app_id, private_key and installation_id.");
  }
  if (!input.app_id || !input.private_key || !input.installation_id) {
    throw badRequest("App credentials need all of app_id, private_key and installation_id.");
  }
  try {
    createPrivateKey(input.private_key);
  } catch {
    throw invalidField(["body", "private_key"], "private_key must be a PEM-encoded private key");
  }
  return {
    kind: "app",
    appId: input.app_id,
    privateKey: input.private_key,
    installationId: input.installation_id,
  };
}

export async function createCodehostIntegration(
  db: Db,
  actor: Actor,
  input: CreateCodehostIntegrationInput,
): Promise<CodehostIntegration> {
  requireOrgRole(actor, "admin");
  refuseLiteralAddress(input.api_base_url, ["body", "api_base_url"]);
  const credentials = credentialsOf(input);
  await refuseDuplicateName(db, actor, input.name);
  const apiBaseUrl = input.api_base_url.replace(/\/+$/, "");
  await verifyCredentials(apiBaseUrl, credentials, {
    credential: ["body", credentials.kind === "token" ? "token" : "private_key"],
    url: ["body", "api_base_url"],
  });
  return db.$transaction(async (tx) => {
    const row = await tx.codehostIntegration.create({
      data: {
        organizationId: actor.organizationId,
        name: input.name,
        apiBaseUrl,
        lastCheckedAt: new Date(),
        tokenEncrypted: credentials.kind === "token" ? encrypt(credentials.token) : null,
        appId: credentials.kind === "app" ? credentials.appId : null,
        privateKeyEncrypted: credentials.kind === "app" ? encrypt(credentials.privateKey) : null,
        installationId: credentials.kind === "app" ? credentials.installationId : null,
        webhookSecretEncrypted: input.webhook_secret ? encrypt(input.webhook_secret) : null,
      },
    });
    await recordAudit(tx, actor, {
      action: "codehost_integration.create",
      targetType: "codehost_integration",
      targetId: row.id,
      data: { name: row.name, api_base_url: row.apiBaseUrl, credentials: credentials.kind },
    });
    return toIntegration(row);
  });
}

/** Two integrations of one organization never share a name (the import picker shows names). */
export async function refuseDuplicateName(
  db: DbClient,
  actor: Actor,
  name: string,
  exceptId?: string,
): Promise<void> {
  const same = await db.codehostIntegration.findFirst({
    where: {
      organizationId: actor.organizationId,
      name: { equals: name, mode: "insensitive" },
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { name: true },
  });
  if (same)
    throw conflict(`An integration named "${same.name}" already exists: choose another name.`);
}

/** The organization's integrations, oldest first (the dashboard's install picker). */
export async function listCodehostInstallations(
  db: Db,
  actor: Actor,
): Promise<CodehostInstallation[]> {
  const rows = await db.codehostIntegration.findMany({
    where: { organizationId: actor.organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, installationId: true, name: true },
  });
  return rows.map((r) => ({ id: r.id, installation_id: r.installationId, name: r.name }));
}

/** An integration of the actor's organization, or 404 exactly as if it did not exist. */
export async function findCodehostIntegration(
  db: DbClient,
  actor: Actor,
  integrationId: string,
): Promise<IntegrationRow> {
  const row = await db.codehostIntegration.findFirst({
    where: { id: integrationId, organizationId: actor.organizationId },
  });
  if (!row) throw notFound(`Integration ${integrationId} not found.`);
  return row;
}

/** One integration of the actor's organization (credentials are never returned). */
export async function getCodehostIntegration(
  db: DbClient,
  actor: Actor,
  integrationId: string,
): Promise<CodehostIntegration> {
  return toIntegration(await findCodehostIntegration(db, actor, integrationId));
}

/** Deletes an integration no deployment uses (409 naming how many do, deleted ones included). */
export async function deleteCodehostIntegration(
  db: Db,
  actor: Actor,
  integrationId: string,
): Promise<void> {
  requireOrgRole(actor, "admin");
  await db.$transaction(async (tx) => {
    const row = await findCodehostIntegration(tx, actor, integrationId);
    // Locks the row so no deployment starts using it between the count and the delete.
    await tx.$executeRaw`SELECT 1 FROM codehost_integrations WHERE id = ${row.id}::uuid FOR UPDATE`;
    const users = await tx.deployment.findMany({
      where: { integrationId: row.id },
      orderBy: { name: "asc" },
      select: { name: true },
    });
    if (users.length > 0)
      throw conflict(
        usedByMessage(
          row.name,
          users.map((u) => u.name),
        ),
      );
    await tx.codehostIntegration.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "codehost_integration.delete",
      targetType: "codehost_integration",
      targetId: row.id,
      data: { name: row.name },
    });
  });
}

/** "… is used by 3 deployments: a, b and c. Delete them first." (at most 5 names). */
function usedByMessage(integration: string, names: string[]): string {
  const shown = names.slice(0, 5);
  const more = names.length - shown.length;
  const list =
    more > 0
      ? `${shown.join(", ")} and ${more} more`
      : shown.length > 1
        ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`
        : shown[0];
  const n = names.length;
  return `Integration "${integration}" is used by ${n} deployment${n === 1 ? "" : "s"}: ${list}. Delete ${n === 1 ? "it" : "them"} first.`;
}

/** A client for the integration's code host, with its credentials decrypted for this use only. */
export function codehostClientFor(row: IntegrationRow): CodehostClient {
  return createCodehostClient(row.apiBaseUrl, storedCredentials(row));
}

/** The integration's credentials, decrypted for one use. */
export function storedCredentials(row: IntegrationRow): CodehostCredentials {
  return row.tokenEncrypted
    ? { kind: "token", token: decrypt(row.tokenEncrypted) }
    : {
        kind: "app",
        appId: row.appId ?? "",
        privateKey: decrypt(row.privateKeyEncrypted ?? ""),
        installationId: row.installationId ?? "",
      };
}
