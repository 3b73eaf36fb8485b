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
  if (!(await lockDeploymentRow(tx, id, actor.workspaceId))) throw deploymentNotFound(id);
  return findDeployment(tx, actor, id);
}

/**
 * `SELECT ... FOR UPDATE` on one deployment row (in a workspace, when given), for the service
 * and the engine alike. False when there is no such row.
 */
export async function lockDeploymentRow(
  tx: DbClient,
  id: string,
  workspaceId?: string,
): Promise<boolean> {
  const locked = workspaceId
    ? await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM deployments WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid FOR UPDATE`
    : await tx.$queryRaw<
        { id: string }[]
      >`SELECT id FROM deployments WHERE id = ${id}::uuid FOR UPDATE`;
  return locked.length > 0;
}

/**
 * Locks the deployment a revision belongs to (`FOR NO KEY UPDATE`), for a writer that starts from
 * the revision (the engine's moves, listener reports): a deployment's row is taken before its
 * revisions' rows everywhere, or a deletion holding the deployment and a revision's move that
 * writes it deadlock.
 */
export async function lockRevisionDeployment(tx: DbClient, revisionId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM deployments
    WHERE id = (SELECT deployment_id FROM revisions WHERE id = ${revisionId}::uuid)
    FOR NO KEY UPDATE`;
}

/** Transactions that lock a deployment may queue behind others on the same row: wait longer. */
export const lockedTransaction = { maxWait: 10_000, timeout: 20_000 };
