import type { SourceConfig } from "@/schemas/deployments";
import type { Db } from "@/server/db";
import { recordAudit } from "../audit/record";
import { lockDeploymentRow, lockedTransaction } from "../deployments/find";
import { markForDeletion } from "../revisions/deletion";

// ttl_hours (contract 5.6): a preview whose pull request saw no push for that long is deleted
// and torn down, as a closed one is. The worker runs this every HANGAR_PREVIEW_SWEEP_SECONDS.

const HOUR_MS = 3600_000;

/** Deletes the previews past their parent's ttl_hours; returns their ids. */
export async function expirePreviews(db: Db, now = new Date()): Promise<string[]> {
  const previews = await db.deployment.findMany({
    where: { prNumber: { not: null }, status: { not: "AWAITING_DELETE" } },
    select: { id: true, preview: true, parent: { select: { sourceConfig: true } } },
  });
  const expired = previews.filter((p) => {
    const ttl = (p.parent?.sourceConfig as SourceConfig | undefined)?.previews?.ttl_hours;
    const lastPush = Date.parse(
      (p.preview as { last_push_at?: string } | null)?.last_push_at ?? "",
    );
    // A preview whose parent is gone is deleted with it; one without a parent left is expired.
    return !ttl || !Number.isFinite(lastPush) || now.getTime() - lastPush > ttl * HOUR_MS;
  });
  const deleted: string[] = [];
  for (const { id } of expired) {
    const done = await db.$transaction(async (tx) => {
      if (!(await lockDeploymentRow(tx, id))) return false;
      const row = await tx.deployment.findUniqueOrThrow({ where: { id } });
      if (row.status === "AWAITING_DELETE") return false;
      await markForDeletion(tx, row);
      const integration = row.integrationId
        ? await tx.codehostIntegration.findUnique({ where: { id: row.integrationId } })
        : null;
      if (integration)
        await recordAudit(
          tx,
          { organizationId: integration.organizationId, workspaceId: row.workspaceId },
          {
            action: "deployment.preview_delete",
            targetType: "deployment",
            targetId: row.id,
            data: { name: row.name, pr: row.prNumber ?? 0, reason: "ttl" },
          },
        );
      return true;
    }, lockedTransaction);
    if (done) deleted.push(id);
  }
  return deleted;
}
