import type { Revision } from "@/schemas/revisions";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { conflict } from "@/server/errors";
import { ACTIVE_STATUSES, isTerminal } from "@/schemas/revision-states";
import { recordAudit } from "../audit/record";
import { lockDeployment, lockedTransaction } from "../deployments/find";
import { queuePreviewStatus } from "../previews/commit-status";
import { toRevision } from "./history";
import { appendLogs } from "./logs-append";
import { findRevisionOf } from "./logs-list";
import { notifyRevisionStop } from "./stop-events";
import { transition } from "./transition";

/**
 * Stops a revision that has not finished (INTERRUPTED). A build in progress is stopped at once
 * (its worker is notified); other steps notice at their next status move and stop. The
 * deployment's next revision, if any, goes ahead. 409 when already final.
 */
export async function interruptRevision(
  db: Db,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
): Promise<Revision> {
  requireRole(actor, "editor");
  return db.$transaction(async (tx) => {
    await lockDeployment(tx, actor, deploymentId);
    const found = await findRevisionOf(tx, actor, deploymentId, revisionId);
    const message = `Interrupted by ${actor.kind === "user" ? "a user" : "an API key"}.`;
    const moved =
      !isTerminal(found.status) &&
      (await transition(tx, found.id, ACTIVE_STATUSES, "INTERRUPTED", message));
    if (!moved) {
      const now = await tx.revision.findUniqueOrThrow({ where: { id: found.id } });
      throw conflict(`Revision ${revisionId} has already finished (${now.status}).`);
    }
    await appendLogs(tx, found.id, "build", [message]);
    await notifyRevisionStop(tx, found.id);
    await queuePreviewStatus(tx, found.id, "INTERRUPTED");
    await recordAudit(tx, actor, {
      action: "revision.interrupt",
      targetType: "revision",
      targetId: found.id,
      data: { deployment_id: deploymentId, from: found.status },
    });
    return toRevision(await tx.revision.findUniqueOrThrow({ where: { id: found.id } }));
  }, lockedTransaction);
}
