import type { Listener } from "@/generated/prisma/client";
import { env } from "@/env";
import type { ListenerDeletionAnswer, ListenerDeletionReportInput } from "@/schemas/listeners";
import type { Db, DbClient } from "@/server/db";
import { conflict, notFound } from "@/server/errors";
import { lockedTransaction } from "../deployments/find";
import { appendLogs } from "../revisions/logs-append";

// A listener's report on the deployment it is deleting from its cluster: log lines, a lease
// renewal, and at the end DELETED (the row goes, the name is free) or DELETE_FAILED (retried
// once the lease period has passed). Idempotent per report_id, also after the row is gone.

const deleted = (deploymentId: string): ListenerDeletionAnswer => ({
  deployment_id: deploymentId,
  status: "DELETED",
  lease_owner: null,
  lease_expires_at: null,
});

/** Lines go to the newest revision's deploy log: what the dashboard shows while it is deleted. */
async function logOnNewest(tx: DbClient, deploymentId: string, lines: string[], error = false) {
  const newest = await tx.revision.findFirst({
    where: { deploymentId },
    orderBy: { number: "desc" },
    select: { id: true },
  });
  if (newest) await appendLogs(tx, newest.id, "deploy", lines, error ? "ERROR" : "INFO");
}

export async function reportOnDeletion(
  db: Db,
  listener: Listener,
  deploymentId: string,
  input: ListenerDeletionReportInput,
): Promise<ListenerDeletionAnswer> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      { status: string; delete_lease_owner: string | null; delete_lease_expires_at: Date | null }[]
    >`
      SELECT status, delete_lease_owner, delete_lease_expires_at FROM deployments
      WHERE id = ${deploymentId}::uuid AND listener_id = ${listener.id}::uuid FOR UPDATE`;
    if (!row) {
      const reported = await tx.listenerDeletionReport.count({
        where: { deploymentId, listenerId: listener.id },
      });
      if (reported > 0) return deleted(deploymentId);
      throw notFound(`Deployment ID ${deploymentId} not found.`);
    }
    const current: ListenerDeletionAnswer = {
      deployment_id: deploymentId,
      status: "AWAITING_DELETE",
      lease_owner: row.delete_lease_owner,
      lease_expires_at: row.delete_lease_expires_at?.toISOString() ?? null,
    };
    if (row.status !== "AWAITING_DELETE")
      throw conflict(`Deployment ID ${deploymentId} is not being deleted.`);
    const inserted = await tx.$executeRaw`
      INSERT INTO listener_deletion_reports (deployment_id, report_id, listener_id)
      VALUES (${deploymentId}::uuid, ${input.report_id}, ${listener.id}::uuid)
      ON CONFLICT DO NOTHING`;
    if (inserted === 0) return current;
    if (row.delete_lease_owner !== input.replica_id)
      throw conflict(
        `Replica ${row.delete_lease_owner ?? "(none)"} holds the deletion of deployment ${deploymentId}; stop deleting it.`,
      );

    await logOnNewest(tx, deploymentId, input.lines);
    const lease = env.HANGAR_LISTENER_LEASE_SECONDS;
    if (input.status === "DELETED") {
      await tx.deployment.delete({ where: { id: deploymentId } });
      return deleted(deploymentId);
    }
    if (input.status === "DELETE_FAILED") {
      const message =
        input.message ?? `Listener ${listener.computeId} could not delete the deployment.`;
      await logOnNewest(tx, deploymentId, [`${message} Retrying in ${lease} s.`], true);
    }
    // A renewal keeps the lease; a failure frees it, handed out again once the period passes.
    const owner = input.status === "DELETE_FAILED" ? null : input.replica_id;
    const [renewed] = await tx.$queryRaw<{ delete_lease_expires_at: Date }[]>`
      UPDATE deployments
      SET delete_lease_owner = ${owner},
          delete_lease_expires_at = now() + make_interval(secs => ${lease}::double precision)
      WHERE id = ${deploymentId}::uuid RETURNING delete_lease_expires_at`;
    return {
      ...current,
      lease_owner: owner,
      lease_expires_at: renewed?.delete_lease_expires_at.toISOString() ?? null,
    };
  }, lockedTransaction);
}
