import type PgBoss from "pg-boss";
import type { Db, DbClient } from "@/server/db";
import type { Drivers } from "./drivers";
import type { KubernetesObject } from "./manifests";
import { enqueueTeardown } from "./queue";
import { ACTIVE_STATUSES } from "./revision-states";

// Deleting a deployment (contract 5.3): AWAITING_DELETE at once, then the worker tears its
// runtime down and removes the row, which frees the name.

/** In the DELETE's transaction, with the row locked: stop its revisions, queue the teardown. */
export async function markForDeletion(tx: DbClient, deploymentId: string): Promise<void> {
  await tx.deployment.update({ where: { id: deploymentId }, data: { status: "AWAITING_DELETE" } });
  await tx.revision.updateMany({
    where: { deploymentId, status: { in: ACTIVE_STATUSES } },
    data: { status: "INTERRUPTED", statusMessage: "The deployment is being deleted." },
  });
  await enqueueTeardown(tx, { deploymentId });
}

/** Every object any revision of the deployment deployed, once each (names may have moved). */
async function deployedObjects(db: DbClient, deploymentId: string): Promise<KubernetesObject[]> {
  const revisions = await db.revision.findMany({
    where: { deploymentId, manifests: { not: { equals: null } } },
    orderBy: { number: "asc" },
    select: { manifests: true },
  });
  const byKey = new Map<string, KubernetesObject>();
  for (const { manifests } of revisions) {
    for (const object of (manifests ?? []) as unknown as KubernetesObject[]) {
      byKey.set(`${object.kind}/${object.metadata?.namespace}/${object.metadata?.name}`, object);
    }
  }
  return [...byKey.values()];
}

/** Tears down, then deletes the row (only while it is still AWAITING_DELETE). */
export async function runTeardown(
  ctx: { db: Db; drivers: Drivers; boss?: PgBoss },
  deploymentId: string,
): Promise<{ deleted: boolean }> {
  const deployment = await ctx.db.deployment.findUnique({ where: { id: deploymentId } });
  if (!deployment || deployment.status !== "AWAITING_DELETE") return { deleted: false };
  await ctx.drivers.deployer.teardown(await deployedObjects(ctx.db, deploymentId));
  const { count } = await ctx.db.deployment.deleteMany({
    where: { id: deploymentId, status: "AWAITING_DELETE" },
  });
  return { deleted: count === 1 };
}
