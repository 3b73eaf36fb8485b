import type { DbClient } from "@/server/db";

// What deleting a deployment removes from a cluster: the worker's teardown (Hangar's cluster)
// and a listener's deletion work (the listener's cluster) read the same list.

export interface StoredObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/** Every object any revision of the deployment deployed, once each (names may have moved). */
export async function deployedObjects(db: DbClient, deploymentId: string): Promise<StoredObject[]> {
  const revisions = await db.revision.findMany({
    where: { deploymentId, manifests: { not: { equals: null } } },
    orderBy: { number: "asc" },
    select: { manifests: true },
  });
  const byKey = new Map<string, StoredObject>();
  for (const { manifests } of revisions) {
    for (const object of (manifests ?? []) as StoredObject[]) {
      byKey.set(`${object.kind}/${object.metadata?.namespace}/${object.metadata?.name}`, object);
    }
  }
  return [...byKey.values()];
}
