import type { ApprovePreviewBody } from "@/schemas/previews";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { badRequest, conflict } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { findDeployment, lockDeployment, lockedTransaction } from "../deployments/find";
import { versioned, type VersionedDeployment } from "../deployments/read";
import { cutRevision } from "../deployments/revisions-cut";
import { loadSecrets } from "../deployments/secrets";
import { asJson, toDeployment } from "../deployments/serialize";
import type { StoredPreview } from "./names";
import { previewsWhat } from "./revision-gate";

// An editor approves a fork preview's head commit (contract 5.6): the preview's secrets then
// apply to that commit, and to no other. The editor names the commit they reviewed, so an
// approval never reaches a commit pushed while they were reading.

/**
 * Records `head_sha` as the approved commit and cuts a revision of it with the preview's
 * secrets (none to give: only the approval is recorded). Approving the approved head again
 * changes nothing.
 */
export async function approvePreview(
  db: Db,
  actor: Actor,
  deploymentId: string,
  body: ApprovePreviewBody,
): Promise<VersionedDeployment> {
  requireRole(actor, "editor");
  return db.$transaction(async (tx) => {
    const row = await lockDeployment(tx, actor, deploymentId);
    const preview = row.preview as StoredPreview | null;
    if (!preview)
      throw badRequest(
        `${row.name} is not a preview: only the preview of a pull request from a fork is approved.`,
      );
    const what = previewsWhat(row.name, preview);
    if (!preview.fork)
      throw badRequest(
        `${what} from the repository itself: its revisions get its secrets without approval.`,
      );
    if (row.status === "AWAITING_DELETE")
      throw conflict(`Deployment ID ${row.id} is being deleted.`);
    if (body.head_sha.toLowerCase() !== preview.head_sha.toLowerCase())
      throw conflict(
        `${what}, whose head is now ${preview.head_sha}, not ${body.head_sha}: review that commit, then approve it.`,
      );
    if (preview.approved_sha === preview.head_sha) return versioned(row);

    await tx.deployment.update({
      where: { id: row.id },
      data: {
        preview: asJson({ ...preview, approved_sha: preview.head_sha }),
        version: { increment: 1 },
      },
    });
    const secrets = await loadSecrets(tx, row.id);
    const current = toDeployment(row);
    const revision = secrets.length
      ? await cutRevision(tx, row.id, {
          source: "codehost",
          sourceConfig: current.source_config,
          sourceRevisionConfig: current.source_revision_config,
          secrets,
        })
      : null;
    await recordAudit(tx, actor, {
      action: "deployment.preview_approve",
      targetType: "deployment",
      targetId: row.id,
      data: {
        name: row.name,
        pr: preview.pr_number,
        commit: preview.head_sha,
        secrets: secrets.length,
        revision: revision?.number ?? null,
      },
    });
    return versioned(await findDeployment(tx, actor, row.id));
  }, lockedTransaction);
}
