import { ACTIVE_STATUSES } from "@/schemas/revision-states";
import type { DbClient } from "@/server/db";
import { notifyListenerWork } from "../listeners/work-events";
import { revokeDeploymentIngestKeys } from "../tracing/ingest-keys";
import { enqueueTeardown } from "./queue";

// Deleting a deployment (contract 5.3): AWAITING_DELETE at once, then the worker tears its
// runtime down and removes the row, which frees the name. A deployment with a listener is torn
// down by that listener instead (woken here; services/listeners/deletion-*.ts).

/** In the DELETE's transaction, with the row locked: stop its revisions, queue the teardown. */
export async function markForDeletion(
  tx: DbClient,
  deployment: { id: string; listenerId: string | null },
): Promise<void> {
  const deploymentId = deployment.id;
  await tx.deployment.update({
    where: { id: deploymentId },
    data: { status: "AWAITING_DELETE", deleteLeaseOwner: null, deleteLeaseExpiresAt: null },
  });
  await tx.revision.updateMany({
    where: { deploymentId, status: { in: ACTIVE_STATUSES } },
    data: { status: "INTERRUPTED", statusMessage: "The deployment is being deleted." },
  });
  // Its pods' tracing ingest keys die with it (contract 15.7).
  await revokeDeploymentIngestKeys(tx, deploymentId);
  if (deployment.listenerId) await notifyListenerWork(tx, deployment.listenerId);
  else await enqueueTeardown(tx, { deploymentId });
}
