import { randomBytes } from "node:crypto";
import type { PushToken, RegistryTarget } from "@/schemas/registry";
import { requireRole, type Actor } from "@/server/auth/actor";
import { sha256Hex } from "@/server/crypto";
import type { Db, DbClient } from "@/server/db";
import { AppError, badRequest, conflict } from "@/server/errors";
import {
  namespaceUrlOf,
  registryConfig,
  repositoryOf,
  type RegistryConfig,
} from "@/server/registry/config";
import { recordAudit } from "../audit/record";
import { findDeployment } from "../deployments/find";
import type { DeploymentRow } from "../deployments/serialize";

// Push tokens: the password the deploy client logs in to Hangar's registry with. Random, stored
// as a SHA-256 only, one deployment's repository, an hour, revocable.

export const PUSH_TOKEN_TTL_SECONDS = 3600;
const PREFIX = "hgp_";

const newToken = () => PREFIX + randomBytes(32).toString("base64url");

const requireRegistry = (): RegistryConfig => {
  const config = registryConfig();
  if (!config)
    throw new AppError(
      "unavailable",
      "No container registry is configured: the operator sets HANGAR_REGISTRY_URL (README, Container registry).",
    );
  return config;
};

function requireImageSource(deployment: DeploymentRow): void {
  if (deployment.source !== "internal_container")
    throw badRequest(
      `Push tokens are for internal_container deployments; deployment ${deployment.id} has source ${deployment.source}.`,
    );
}

/** A new push token for one deployment's repository (shown once). */
export async function createPushToken(
  db: Db,
  actor: Actor,
  deploymentId: string,
): Promise<PushToken> {
  requireRole(actor, "editor");
  const deployment = await findDeployment(db, actor, deploymentId);
  requireImageSource(deployment);
  if (deployment.status === "AWAITING_DELETE")
    throw conflict(`Deployment ID ${deploymentId} is being deleted.`);
  const config = requireRegistry();
  const token = newToken();
  const expiresAt = new Date(Date.now() + PUSH_TOKEN_TTL_SECONDS * 1000);
  await db.$transaction(async (tx) => {
    const row = await tx.pushToken.create({
      data: {
        workspaceId: deployment.workspaceId,
        deploymentId: deployment.id,
        tokenHash: sha256Hex(token),
        createdBy: actor.userId ?? actor.apiKeyId,
        expiresAt,
      },
    });
    await recordAudit(tx, actor, {
      action: "deployment.push_token",
      targetType: "deployment",
      targetId: deployment.id,
      data: { push_token_id: row.id, expires_at: expiresAt.toISOString() },
    });
  });
  return {
    token,
    registry_url: namespaceUrlOf(config, deployment.workspaceId),
    expires_at: expiresAt.toISOString(),
  };
}

/** Revokes every live push token of a deployment; registries refuse them from then on. */
export async function revokePushTokens(db: Db, actor: Actor, deploymentId: string): Promise<void> {
  requireRole(actor, "editor");
  const deployment = await findDeployment(db, actor, deploymentId);
  await db.$transaction(async (tx) => {
    // A running build's own token is not the client's to revoke: it ends with its build.
    const revoked = await tx.pushToken.updateMany({
      where: { deploymentId: deployment.id, revisionId: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await recordAudit(tx, actor, {
      action: "deployment.push_tokens_revoke",
      targetType: "deployment",
      targetId: deployment.id,
      data: { revoked: revoked.count },
    });
  });
}

/** Where the dashboard's push commands point (null registry_url: none is configured). */
export async function registryTarget(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
): Promise<RegistryTarget> {
  const deployment = await findDeployment(db, actor, deploymentId);
  requireImageSource(deployment);
  const config = registryConfig();
  return config
    ? {
        registry_url: namespaceUrlOf(config, deployment.workspaceId),
        image: `${config.host}/${repositoryOf(deployment)}`,
      }
    : { registry_url: null, image: null };
}

/** The deployment a live push token stands for, or null (unknown, expired or revoked). */
export async function pushTokenDeployment(
  db: DbClient,
  token: string,
): Promise<{ workspaceId: string; name: string; tokenId: string; build: boolean } | null> {
  if (!token.startsWith(PREFIX)) return null;
  const row = await db.pushToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { deployment: { select: { workspaceId: true, name: true, status: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt <= new Date()) return null;
  if (row.deployment.status === "AWAITING_DELETE") return null;
  return {
    workspaceId: row.deployment.workspaceId,
    name: row.deployment.name,
    tokenId: row.id,
    build: row.revisionId !== null,
  };
}

/**
 * A build's own push token (the worker's, for one revision): push and pull of its deployment's
 * repository and pull of the workspace's others (base images), valid `ttlSeconds` (the build's
 * time limit). The caller revokes it when the build ends (revokeBuildToken).
 */
export async function issueBuildToken(
  db: DbClient,
  revision: { id: string; deploymentId: string; workspaceId: string },
  ttlSeconds: number,
): Promise<{ id: string; token: string }> {
  const token = newToken();
  const row = await db.pushToken.create({
    data: {
      workspaceId: revision.workspaceId,
      deploymentId: revision.deploymentId,
      revisionId: revision.id,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    },
  });
  return { id: row.id, token };
}

export async function revokeBuildToken(db: DbClient, tokenId: string): Promise<void> {
  await db.pushToken.updateMany({
    where: { id: tokenId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
