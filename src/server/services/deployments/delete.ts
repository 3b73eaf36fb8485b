import type { BulkDeleteResult } from "@/schemas/deployments";
import { requireRole, type Actor } from "@/server/auth/actor";
import { forgetIngestKeys } from "@/server/auth/ingest-keys";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { markForDeletion } from "@/server/services/revisions/deletion";
import { recordAudit } from "../audit/record";
import { lockDeployment, lockDeploymentRow, lockedTransaction } from "./find";

/**
 * Deletes a deployment: it goes to AWAITING_DELETE at once (204), its revisions stop, and the
 * worker tears its runtime down and then removes it (404, and the name is free again).
 */
export async function deleteDeployment(db: Db, actor: Actor, id: string): Promise<void> {
  requireRole(actor, "editor");
  await db.$transaction(async (tx) => {
    const row = await lockDeployment(tx, actor, id);
    if (row.status === "AWAITING_DELETE") return;
    await markForDeletion(tx, row);
    // Its previews go with it: a preview without its parent previews nothing.
    const previews = await tx.deployment.findMany({
      where: { parentId: row.id, status: { not: "AWAITING_DELETE" } },
      orderBy: { id: "asc" },
    });
    for (const preview of previews) {
      await lockDeploymentRow(tx, preview.id);
      await markForDeletion(tx, preview);
    }
    await recordAudit(tx, actor, {
      action: "deployment.delete",
      targetType: "deployment",
      targetId: row.id,
      data: { name: row.name, ...(previews.length ? { previews: previews.length } : {}) },
    });
  }, lockedTransaction);
  // Its ingest keys were revoked in that transaction: refused from this process's next request
  // on, not only once the announcement arrives (contract 15.7).
  forgetIngestKeys();
}

/** Deletes each id on its own: one failure does not stop the others (200, or 207 when some failed). */
export async function bulkDeleteDeployments(
  db: Db,
  actor: Actor,
  ids: string[],
): Promise<BulkDeleteResult> {
  requireRole(actor, "editor");
  const results: BulkDeleteResult["results"] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await deleteDeployment(db, actor, id);
      results.push({ id, status: 204, detail: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, status: error.status, detail: error.message });
    }
  }
  return { results };
}
