import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { deploymentInclude, type DeploymentRow } from "./serialize";

export const deploymentNotFound = (id: string) => notFound(`Deployment ID ${id} not found.`);

/** A deployment of the actor's workspace, or the contract's 404 (also for other workspaces'). */
export async function findDeployment(
  db: DbClient,
  actor: Actor,
  id: string,
): Promise<DeploymentRow> {
  const row = await db.deployment.findFirst({
    where: { id, workspaceId: actor.workspaceId },
    include: deploymentInclude,
  });
  if (!row) throw deploymentNotFound(id);
  return row;
}

/**
 * Locks the deployment's row for the rest of the transaction, so concurrent changes of one
 * deployment run one after another and none is lost; then reads it.
 */
export async function lockDeployment(
  tx: DbClient,
  actor: Actor,
  id: string,
): Promise<DeploymentRow> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM deployments WHERE id = ${id}::uuid AND workspace_id = ${actor.workspaceId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw deploymentNotFound(id);
  return findDeployment(tx, actor, id);
}

/** Transactions that lock a deployment may queue behind others on the same row: wait longer. */
export const lockedTransaction = { maxWait: 10_000, timeout: 20_000 };
