import type PgBoss from "pg-boss";
import type { Db } from "@/server/db";
import { deployedObjects } from "@/server/services/deployments/deployed-objects";
import type { Drivers } from "./drivers";
import type { KubernetesObject } from "./manifests";

// The worker's half of deleting a deployment (services/revisions/deletion.ts marks it).

/**
 * Tears down, then deletes the row (only while it is still AWAITING_DELETE). A deployment with a
 * listener is not Hangar's to tear down: its listener does (services/listeners/deletion-*.ts).
 */
export async function runTeardown(
  ctx: { db: Db; drivers: Drivers; boss?: PgBoss },
  deploymentId: string,
): Promise<{ deleted: boolean }> {
  const deployment = await ctx.db.deployment.findUnique({ where: { id: deploymentId } });
  if (!deployment || deployment.status !== "AWAITING_DELETE" || deployment.listenerId)
    return { deleted: false };
  const objects = (await deployedObjects(ctx.db, deploymentId)) as KubernetesObject[];
  await ctx.drivers.deployer.teardown(objects);
  const { count } = await ctx.db.deployment.deleteMany({
    where: { id: deploymentId, status: "AWAITING_DELETE" },
  });
  return { deleted: count === 1 };
}
