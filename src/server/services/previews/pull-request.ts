import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { PreviewOutcome, PullRequestEvent } from "@/schemas/previews";
import type { DbClient } from "@/server/db";
import { sameRepo } from "@/server/integrations/codehost/repo-url";
import { recordAudit } from "../audit/record";
import { lockDeploymentRow } from "../deployments/find";
import { markForDeletion } from "../revisions/deletion";
import { branchOf } from "./names";
import { openPreview } from "./open";

// A signed pull_request delivery (contract 5.6), in the delivery's transaction: which
// deployments preview it, and what happened to each preview.

const OPENING = new Set(["opened", "reopened", "synchronize"]);

export interface PullRequestResult {
  revisionIds: string[];
  previews: PreviewOutcome[];
}

export async function receivePullRequest(
  tx: DbClient,
  integrationId: string,
  organizationId: string,
  event: PullRequestEvent,
): Promise<PullRequestResult> {
  if (event.action === "closed") return closePreviews(tx, integrationId, organizationId, event);
  if (!OPENING.has(event.action)) return { revisionIds: [], previews: [] };

  // Parents: deployments of the pull request's base repository following its base branch, with
  // build_on_push and previews on. A preview is never a parent.
  const candidates = await tx.deployment.findMany({
    where: {
      integrationId,
      source: "codehost",
      parentId: null,
      status: { not: "AWAITING_DELETE" },
      sourceConfig: { path: ["previews", "enabled"], equals: true },
    },
    orderBy: { createdAt: "asc" },
  });
  const result: PullRequestResult = { revisionIds: [], previews: [] };
  for (const parent of candidates) {
    const config = parent.sourceConfig as SourceConfig;
    if (!config.build_on_push || !parent.repoUrl) continue;
    if (!sameRepo(parent.repoUrl, event.pull_request.base.repo.html_url)) continue;
    if (
      branchOf(parent.sourceRevisionConfig as SourceRevisionConfig) !== event.pull_request.base.ref
    )
      continue;
    const opened = await openPreview(tx, parent, event, organizationId);
    result.previews.push(opened.outcome);
    if (opened.revisionId) result.revisionIds.push(opened.revisionId);
  }
  return result;
}

/** closed (merged or not): every live preview of the pull request is deleted and torn down. */
async function closePreviews(
  tx: DbClient,
  integrationId: string,
  organizationId: string,
  event: PullRequestEvent,
): Promise<PullRequestResult> {
  const previews = await tx.deployment.findMany({
    where: {
      integrationId,
      prNumber: event.number,
      status: { not: "AWAITING_DELETE" },
    },
    orderBy: { createdAt: "asc" },
  });
  const outcomes: PreviewOutcome[] = [];
  for (const preview of previews) {
    if (!preview.repoUrl || !sameRepo(preview.repoUrl, event.pull_request.base.repo.html_url))
      continue;
    await lockDeploymentRow(tx, preview.id);
    await markForDeletion(tx, preview);
    const merged = event.pull_request.merged === true;
    await recordAudit(
      tx,
      { organizationId, workspaceId: preview.workspaceId },
      {
        action: "deployment.preview_delete",
        targetType: "deployment",
        targetId: preview.id,
        data: { name: preview.name, pr: event.number, reason: merged ? "merged" : "closed" },
      },
    );
    outcomes.push({
      parent_id: preview.parentId,
      preview_id: preview.id,
      outcome: "deleted",
      detail: `Pull request #${event.number} was ${merged ? "merged" : "closed"}.`,
    });
  }
  return { revisionIds: [], previews: outcomes };
}
