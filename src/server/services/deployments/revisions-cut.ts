import type { DeploymentSource } from "@/generated/prisma/client";
import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { PromotedFrom } from "@/schemas/revisions";
import type { DbClient } from "@/server/db";
import { conflict } from "@/server/errors";
import { enqueueRevisionStep } from "@/server/services/revisions/queue";
import { queuePreviewStatus } from "../previews/commit-status";
import type { StoredPreview } from "../previews/names";
import { gatePreviewRevision } from "../previews/revision-gate";
import { lockDeploymentRow } from "./find";
import { loadSecrets, type StoredSecret } from "./secrets";
import { asJson } from "./serialize";

export interface RevisionSnapshot {
  source: DeploymentSource;
  sourceConfig: SourceConfig;
  sourceRevisionConfig: SourceRevisionConfig;
  secrets: StoredSecret[];
  /** A redeploy of an image in Hangar's registry keeps the digest its revision deployed. */
  imageDigest?: string | null;
  /** A promotion: the deployment and revision the image comes from. */
  promotedFrom?: PromotedFrom | null;
}

/**
 * Records a new revision (number = previous + 1, status QUEUED) holding the whole
 * configuration, makes it the deployment's latest and queues its first step in the same
 * transaction (so the revision engine picks it up). Call with the deployment row locked.
 * A preview's revision builds its pull request's head commit, whatever the caller asked, and
 * a fork's unapproved head gets no secrets (previews/revision-gate.ts); its pull request hears
 * of it (a `pending` commit status recorded with the cut).
 */
export async function cutRevision(tx: DbClient, deploymentId: string, requested: RevisionSnapshot) {
  const current = await tx.deployment.findUnique({
    where: { id: deploymentId },
    select: { status: true, name: true, preview: true },
  });
  if (current?.status === "AWAITING_DELETE") {
    throw conflict(`Deployment ID ${deploymentId} is being deleted.`);
  }
  const snapshot = current?.preview
    ? gatePreviewRevision(current.name, current.preview as StoredPreview, requested)
    : { ...requested, secretsWithheld: false };
  const last = await tx.revision.findFirst({
    where: { deploymentId },
    orderBy: { number: "desc" },
    select: { number: true },
  });
  const revision = await tx.revision.create({
    data: {
      deploymentId,
      number: (last?.number ?? 0) + 1,
      status: "QUEUED",
      source: snapshot.source,
      sourceConfig: asJson(snapshot.sourceConfig),
      // A redeploy keeps the commit it restores; a new config has none until it is built.
      sourceRevisionConfig: asJson(snapshot.sourceRevisionConfig),
      secretsEncrypted: asJson(snapshot.secrets),
      secretsWithheld: snapshot.secretsWithheld,
      imageDigest: snapshot.imageDigest ?? null,
      ...(snapshot.promotedFrom ? { promotedFrom: asJson(snapshot.promotedFrom) } : {}),
    },
  });
  await tx.deployment.update({
    where: { id: deploymentId },
    data: { latestRevisionId: revision.id },
  });
  await enqueueRevisionStep(tx, { revisionId: revision.id });
  // `pending` at the cut, recorded now: a revision that fails at once still shows it first.
  if (current?.preview) await queuePreviewStatus(tx, revision.id, "QUEUED");
  return revision;
}

/**
 * A revision of the deployment's current configuration (and secrets) pinned to a commit: a push
 * to its branch, or a pull request's new head for a preview (record the head on the preview
 * first: its revisions build what it names). Locks the deployment's row first.
 */
export async function cutRevisionAtCommit(tx: DbClient, deploymentId: string, sha: string) {
  await lockDeploymentRow(tx, deploymentId);
  const row = await tx.deployment.findUniqueOrThrow({ where: { id: deploymentId } });
  const revision = await cutRevision(tx, row.id, {
    source: row.source,
    sourceConfig: row.sourceConfig as SourceConfig,
    sourceRevisionConfig: {
      ...(row.sourceRevisionConfig as SourceRevisionConfig),
      repo_commit_sha: sha,
    },
    secrets: await loadSecrets(tx, row.id),
  });
  return { row, revision };
}
