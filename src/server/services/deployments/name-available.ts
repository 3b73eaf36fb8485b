import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";

/**
 * Whether a create with this name would pass the uniqueness rule (contract 5.2): names are unique
 * per workspace until a deleted deployment's row is gone, so AWAITING_DELETE still holds its name.
 */
export async function isDeploymentNameAvailable(
  db: Db,
  actor: Actor,
  name: string,
): Promise<boolean> {
  const row = await db.deployment.findFirst({
    where: { workspaceId: actor.workspaceId, name },
    select: { id: true },
  });
  return row === null;
}
