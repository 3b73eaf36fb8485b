import type { Listener, Revision } from "@/generated/prisma/client";
import { env } from "@/env";
import type { SourceConfig } from "@/schemas/deployments";
import type { ListenerReportAnswer, ListenerReportInput } from "@/schemas/listeners";
import type { Db, DbClient } from "@/server/db";
import { conflict, notFound } from "@/server/errors";
import { lockedTransaction, lockRevisionDeployment } from "../deployments/find";
import { deploymentUrlOf } from "../deployments/url";
import { appendWithinCap } from "../revisions/log-cap";
import { appendLogs } from "../revisions/logs-append";
import { transition } from "../revisions/transition";
import { queuePreviewStatus } from "../previews/commit-status";
import { revokeSupersededIngestKeys } from "../tracing/ingest-keys";
import { notifyListenerWork } from "./work-events";

// A listener's report on the revision it leased: log lines, a lease renewal, and at the end
// DEPLOYED or DEPLOY_FAILED. Delivery is at least once: a report_id already applied changes
// nothing, and a report on a revision that moved on (interrupted) is answered with its state.

const answer = (r: Revision): ListenerReportAnswer => ({
  revision_id: r.id,
  status: r.status,
  remote_reconciled: r.remoteReconciled,
  lease_owner: r.leaseOwner,
  lease_expires_at: r.leaseExpiresAt?.toISOString() ?? null,
});

/** The deployment follows its revision: active, READY, served at its URL. */
async function activate(
  tx: DbClient,
  revision: Revision,
  deployment: { id: string; name: string },
) {
  await tx.deployment.updateMany({
    where: { id: revision.deploymentId, status: { not: "AWAITING_DELETE" } },
    data: { activeRevisionId: revision.id, status: "READY", runtime: "kubernetes" },
  });
  // The earlier revisions' pods are gone: their tracing ingest keys with them (contract 15.7).
  await revokeSupersededIngestKeys(tx, revision.deploymentId, revision.id);
  const url = deploymentUrlOf({
    id: deployment.id,
    name: deployment.name,
    customUrl: (revision.sourceConfig as SourceConfig).custom_url ?? null,
  });
  if (url)
    await tx.$executeRaw`
      UPDATE deployments
      SET source_config = jsonb_set(source_config, '{custom_url}', to_jsonb(${url}::text))
      WHERE id = ${revision.deploymentId}::uuid AND COALESCE(source_config->>'custom_url', '') = ''`;
}

export async function reportOnRevision(
  db: Db,
  listener: Listener,
  revisionId: string,
  input: ListenerReportInput,
): Promise<ListenerReportAnswer> {
  const owned = await db.revision.findFirst({
    where: { id: revisionId, deployment: { listenerId: listener.id } },
    select: { id: true },
  });
  if (!owned) throw notFound(`Revision ${revisionId} not found.`);
  return db.$transaction(async (tx) => {
    // The deployment's row before the revision's: a DEPLOYED report activates the deployment.
    await lockRevisionDeployment(tx, revisionId);
    await tx.$queryRaw`SELECT id FROM revisions WHERE id = ${revisionId}::uuid FOR UPDATE`;
    const revision = await tx.revision.findUniqueOrThrow({
      where: { id: revisionId },
      include: { deployment: { select: { id: true, name: true } } },
    });
    const inserted = await tx.$executeRaw`
      INSERT INTO listener_reports (revision_id, report_id) VALUES (${revisionId}::uuid, ${input.report_id})
      ON CONFLICT DO NOTHING`;
    if (inserted === 0) return answer(revision);
    if (revision.status !== "DEPLOYING") {
      // The replica is done with it: a deletion waiting for this apply may go ahead now.
      if (input.status && revision.leaseOwner === input.replica_id) {
        await tx.revision.update({
          where: { id: revisionId },
          data: { leaseOwner: null, leaseExpiresAt: null },
        });
        await notifyListenerWork(tx, listener.id);
        return answer({ ...revision, leaseOwner: null, leaseExpiresAt: null });
      }
      return answer(revision);
    }
    if (revision.leaseOwner !== input.replica_id)
      throw conflict(
        `Replica ${revision.leaseOwner ?? "(none)"} holds the lease of revision ${revision.number}; stop applying it.`,
      );

    await appendWithinCap(tx, revisionId, "deploy", input.lines);
    if (!input.status) {
      const [renewed] = await tx.$queryRaw<{ lease_expires_at: Date }[]>`
        UPDATE revisions
        SET lease_expires_at = now() + make_interval(secs => ${env.HANGAR_LISTENER_LEASE_SECONDS}::double precision)
        WHERE id = ${revisionId}::uuid RETURNING lease_expires_at`;
      return answer({ ...revision, leaseExpiresAt: renewed?.lease_expires_at ?? null });
    }
    const done = input.status === "DEPLOYED";
    const message =
      input.message ??
      (done
        ? `Revision ${revision.number} is running on Kubernetes (applied by listener ${listener.computeId}).`
        : `Listener ${listener.computeId} could not apply revision ${revision.number}.`);
    await transition(tx, revisionId, ["DEPLOYING"], input.status, message, {
      remoteReconciled: done,
      runtime: done ? "kubernetes" : null,
      leaseOwner: null,
      leaseExpiresAt: null,
      listenerObjectsEncrypted: null,
    });
    await appendLogs(tx, revisionId, "deploy", [message], done ? "INFO" : "ERROR");
    if (done) await activate(tx, revision, revision.deployment);
    await queuePreviewStatus(tx, revisionId, input.status);
    return answer(await tx.revision.findUniqueOrThrow({ where: { id: revisionId } }));
  }, lockedTransaction);
}
