import { ACTIVE_STATUSES } from "@/schemas/revision-states";
import type { DbClient } from "@/server/db";
import { enqueueTeardown } from "./queue";

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
