import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { PreviewOutcome, PreviewsConfig, PullRequestEvent } from "@/schemas/previews";
import type { DbClient } from "@/server/db";
import { recordAudit } from "../audit/record";
import { lockDeploymentRow } from "../deployments/find";
import { cutRevision, cutRevisionAtCommit } from "../deployments/revisions-cut";
import { loadSecrets } from "../deployments/secrets";
import { asJson } from "../deployments/serialize";
import { queueRefusalStatus } from "./commit-status";
import {
  isFork,
  previewFields,
  previewName,
  previewSourceConfig,
  type StoredPreview,
} from "./names";

// opened, reopened, synchronize: a preview of the pull request is created, or its next revision
// cut at the new head commit.

interface Parent {
  id: string;
  name: string;
  workspaceId: string;
  sourceConfig: unknown;
  sourceRevisionConfig: unknown;
  integrationId: string | null;
  repoUrl: string | null;
}

interface Opened {
  outcome: PreviewOutcome;
  revisionId: string | null;
}

const outcome = (
  parent: Parent,
  kind: PreviewOutcome["outcome"],
  previewId: string | null,
  detail: string | null = null,
): PreviewOutcome => ({ parent_id: parent.id, preview_id: previewId, outcome: kind, detail });

/**
 * The preview of `event`'s pull request under `parent`, created or moved to the head commit.
 * Call in the delivery's transaction; the parent's row is locked so two deliveries of one pull
 * request never create two previews, and max_open counts what is committed.
 */
export async function openPreview(
  tx: DbClient,
  parent: Parent,
  event: PullRequestEvent,
  organizationId: string,
): Promise<Opened> {
  await lockDeploymentRow(tx, parent.id);
  const config = (parent.sourceConfig as SourceConfig).previews as PreviewsConfig;
  const now = new Date();
  const fields = previewFields(event, now);
  const existing = await tx.deployment.findFirst({
    where: { parentId: parent.id, prNumber: event.number, status: { not: "AWAITING_DELETE" } },
  });
  const audit = (entry: {
    action: string;
    targetId: string;
    data: Record<string, string | number | boolean>;
  }) =>
    recordAudit(
      tx,
      { organizationId, workspaceId: parent.workspaceId },
      { ...entry, targetType: "deployment" },
    );

  if (existing) {
    const stored = existing.preview as StoredPreview;
    if (stored.head_sha === fields.head_sha) {
      return {
        outcome: outcome(parent, "unchanged", existing.id, "Already at this commit."),
        revisionId: null,
      };
    }
    // The new head first: the revision builds what the preview names, and a fork's new commit
    // is not the approved one, so it runs without the preview's secrets until approved again.
    const moved = previewFields(event, now, stored.approved_sha ?? null);
    await tx.deployment.update({
      where: { id: existing.id },
      data: { preview: asJson(moved), version: { increment: 1 } },
    });
    const { revision } = await cutRevisionAtCommit(tx, existing.id, moved.head_sha);
    const revisionId = revision.id;
    await audit({
      action: "deployment.preview_push",
      targetId: existing.id,
      data: {
        pr: event.number,
        commit: fields.head_sha,
      },
    });
    return { outcome: outcome(parent, "updated", existing.id), revisionId };
  }

  const open = await tx.deployment.count({
    where: { parentId: parent.id, status: { not: "AWAITING_DELETE" } },
  });
  // A refusal reaches the pull request too: its head commit says why there is no preview.
  const refuse = async (detail: string): Promise<Opened> => {
    await queueRefusalStatus(tx, parent, fields.head_sha, detail);
    return { outcome: outcome(parent, "refused", null, detail), revisionId: null };
  };
  if (open >= config.max_open)
    return refuse(
      `${parent.name} already has ${open} open previews (max_open ${config.max_open}): close a pull request or raise previews.max_open.`,
    );
  const name = previewName(parent.name, event.number);
  const taken = await tx.deployment.findFirst({
    where: { workspaceId: parent.workspaceId, name },
    select: { status: true },
  });
  if (taken) {
    const why =
      taken.status === "AWAITING_DELETE"
        ? `the previous preview named ${name} is still being deleted; push again or reopen once it is gone.`
        : `a deployment named ${name} already exists.`;
    return refuse(`No preview: ${why}`);
  }

  const sourceConfig = previewSourceConfig(parent.sourceConfig as SourceConfig);
  const sourceRevisionConfig: SourceRevisionConfig = {
    ...(parent.sourceRevisionConfig as SourceRevisionConfig),
    repo_ref: fields.branch,
    repo_commit_sha: fields.head_sha,
  };
  // A fork's code is untrusted: it never gets the parent's secrets, whatever previews.secrets says.
  const inherit = config.secrets === "inherit" && !isFork(event);
  const secrets = inherit ? await loadSecrets(tx, parent.id) : [];
  const row = await tx.deployment.create({
    data: {
      workspaceId: parent.workspaceId,
      name,
      source: "codehost",
      deploymentType: "dev",
      sourceConfig: asJson(sourceConfig),
      sourceRevisionConfig: asJson({ ...sourceRevisionConfig, repo_commit_sha: null }),
      integrationId: sourceConfig.integration_id,
      repoUrl: sourceConfig.repo_url,
      parentId: parent.id,
      prNumber: event.number,
      preview: asJson(fields),
      secrets: {
        create: secrets.map((s) => ({ name: s.name, valueEncrypted: s.value_encrypted })),
      },
    },
  });
  const revision = await cutRevision(tx, row.id, {
    source: "codehost",
    sourceConfig,
    sourceRevisionConfig,
    secrets,
  });
  await audit({
    action: "deployment.preview_create",
    targetId: row.id,
    data: {
      name,
      parent: parent.id,
      pr: event.number,
      commit: fields.head_sha,
      fork: fields.fork,
      secrets: secrets.length,
    },
  });
  return { outcome: outcome(parent, "created", row.id), revisionId: revision.id };
}
