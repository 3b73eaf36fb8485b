import type PgBoss from "pg-boss";
import type { Db, DbClient } from "@/server/db";
import type { Drivers } from "./drivers";
import type { KubernetesObject } from "./manifests";

// The worker's half of deleting a deployment (services/revisions/deletion.ts marks it).

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
