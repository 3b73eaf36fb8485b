import { env } from "@/env";
import type { ListenerDeleteWork } from "@/schemas/listeners";
import type { Db } from "@/server/db";
import { deployedObjects } from "../deployments/deployed-objects";

// Deletion work (contract 5.3 with a listener): a deployment of this listener AWAITING_DELETE,
// leased to one replica like a revision. It waits while any of its revisions is still leased
// (a replica mid-apply), so objects are never applied after they were deleted.

interface Claimed {
  id: string;
  name: string;
  lease_expires_at: Date;
}

export async function claimDeletion(
  db: Db,
  listenerId: string,
  replicaId: string,
): Promise<ListenerDeleteWork | null> {
  const [claimed] = await db.$queryRaw<Claimed[]>`
    WITH picked AS (
      SELECT d.id FROM deployments d
      WHERE d.listener_id = ${listenerId}::uuid
        AND d.status = 'AWAITING_DELETE'
        AND (d.delete_lease_expires_at IS NULL OR d.delete_lease_expires_at < now()
             OR d.delete_lease_owner = ${replicaId})
        AND NOT EXISTS (
          SELECT 1 FROM revisions r
          WHERE r.deployment_id = d.id AND r.lease_owner IS NOT NULL AND r.lease_expires_at > now())
      ORDER BY d.updated_at, d.id
      LIMIT 1
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE deployments SET
      delete_lease_owner = ${replicaId},
      delete_lease_expires_at = now() + make_interval(secs => ${env.HANGAR_LISTENER_LEASE_SECONDS}::double precision)
    FROM picked WHERE deployments.id = picked.id
    RETURNING deployments.id, deployments.name, deployments.delete_lease_expires_at AS lease_expires_at`;
  if (!claimed) return null;
  const objects = await deployedObjects(db, claimed.id);
  return {
    action: "delete",
    deployment_id: claimed.id,
    deployment_name: claimed.name,
    namespace: objects.map((o) => o.metadata?.namespace).find(Boolean) ?? "",
    lease_expires_at: claimed.lease_expires_at.toISOString(),
    objects: objects as Record<string, unknown>[],
  };
}
