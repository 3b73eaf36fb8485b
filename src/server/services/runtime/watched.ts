import type { DbClient } from "@/server/db";

// The deployments Hangar's own cluster runs (not a listener's), with their active revision's
// number: what the worker's health watch judges (jobs/health), unless a revision is rolling out.

export interface WatchedDeployment {
  id: string;
  revision: number;
}

/** Deployments running on Hangar's cluster, or on listener `listenerId`'s (all, or those of `ids`). */
export async function watchedDeployments(
  db: DbClient,
  ids?: string[],
  listenerId: string | null = null,
): Promise<WatchedDeployment[]> {
  const rows = await db.deployment.findMany({
    where: {
      ...(ids ? { id: { in: ids } } : {}),
      runtime: "kubernetes",
      listenerId,
      activeRevisionId: { not: null },
      status: { in: ["READY", "UNKNOWN"] },
      // While a revision rolls out its pods come and go: judged once it is live (or failed).
      revisions: { none: { status: "DEPLOYING" } },
    },
    select: { id: true, activeRevisionId: true },
  });
  if (rows.length === 0) return [];
  const revisions = await db.revision.findMany({
    where: { id: { in: rows.map((r) => r.activeRevisionId!) } },
    select: { id: true, number: true },
  });
  const numbers = new Map(revisions.map((r) => [r.id, r.number]));
  return rows.flatMap((r) => {
    const revision = numbers.get(r.activeRevisionId!);
    return revision === undefined ? [] : [{ id: r.id, revision }];
  });
}
