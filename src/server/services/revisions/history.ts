import type { Revision as RevisionRow } from "@/generated/prisma/client";
import { harmless } from "@/lib/log-text";
import type { Page } from "@/schemas/common";
import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { ListRevisionsQuery, PromotedFrom, Revision } from "@/schemas/revisions";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db, DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { findDeployment, lockDeployment, lockedTransaction } from "../deployments/find";
import { versioned, type VersionedDeployment } from "../deployments/read";
import { cutRevision } from "../deployments/revisions-cut";
import { loadSecrets, replaceSecrets, type StoredSecret } from "../deployments/secrets";
import { asJson, emptySourceConfig, toDeployment } from "../deployments/serialize";
import type { StoredPreview } from "../previews/names";
import { previewRevisionConfig } from "../previews/revision-gate";

// Revisions (contract 6): a deployment's history, and rolling back to a point in it.

const revisionNotFound = (id: string) => notFound(`Revision ${id} not found.`);

/** Exactly the contract's members, whatever else an older snapshot holds. */
export const revisionConfigOf = (row: RevisionRow): SourceRevisionConfig => {
  const stored = row.sourceRevisionConfig as Partial<SourceRevisionConfig>;
  return {
    repo_ref: stored.repo_ref ?? null,
    graph_config_path: stored.graph_config_path ?? null,
    image_uri: stored.image_uri ?? null,
    source_tarball_path: stored.source_tarball_path ?? null,
    repo_commit_sha: stored.repo_commit_sha ?? null,
  };
};

export const toRevision = (row: RevisionRow): Revision => ({
  id: row.id,
  deployment_id: row.deploymentId,
  number: row.number,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  status: row.status,
  status_message: row.statusMessage === null ? null : harmless(row.statusMessage),
  source: row.source,
  source_revision_config: revisionConfigOf(row),
  remote_reconciled: row.remoteReconciled,
  image_digest: row.imageDigest,
  image_ref: row.imageRef,
  runtime: row.runtime,
  promoted_from: (row.promotedFrom as PromotedFrom | null) ?? null,
});

/** Newest first (number desc); `offset` in the answer is where the next page starts. */
export async function listRevisions(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
  query: ListRevisionsQuery,
): Promise<Page<Revision>> {
  const deployment = await findDeployment(db, actor, deploymentId);
  const rows = await db.revision.findMany({
    where: {
      deploymentId: deployment.id,
      ...(query.status?.length ? { status: { in: query.status } } : {}),
    },
    orderBy: { number: "desc" },
    skip: query.offset,
    take: query.limit,
  });
  return { resources: rows.map(toRevision), offset: query.offset + rows.length };
}

export async function findRevision(
  db: DbClient,
  deploymentId: string,
  revisionId: string,
): Promise<RevisionRow> {
  const row = await db.revision.findFirst({ where: { id: revisionId, deploymentId } });
  if (!row) throw revisionNotFound(revisionId);
  return row;
}

export async function getRevision(
  db: DbClient,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
): Promise<Revision> {
  const deployment = await findDeployment(db, actor, deploymentId);
  return toRevision(await findRevision(db, deployment.id, revisionId));
}

/**
 * Rolls back to a revision's configuration as a new revision: its source, revision config
 * (commit included), secrets and the revision-bearing source_config members come back;
 * deployment settings that never cut revisions (custom_url, build_on_push, ...) stay as they are.
 */
export async function redeployRevision(
  db: Db,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
): Promise<VersionedDeployment> {
  requireRole(actor, "editor");
  return db.$transaction(async (tx) => {
    const row = await lockDeployment(tx, actor, deploymentId);
    const target = await findRevision(tx, row.id, revisionId);
    const stored = { ...emptySourceConfig, ...(target.sourceConfig as Partial<SourceConfig>) };
    const sourceConfig: SourceConfig = {
      ...toDeployment(row).source_config,
      resource_spec: stored.resource_spec,
      install_command: stored.install_command,
      build_command: stored.build_command,
    };
    // A preview runs its pull request's head commit: a redeploy brings back the revision's
    // configuration at that commit (revision-gate.ts), and a revision cut without a fork's
    // secrets did not drop them from the preview.
    const preview = row.preview as StoredPreview | null;
    const sourceRevisionConfig = preview
      ? previewRevisionConfig(preview, revisionConfigOf(target))
      : revisionConfigOf(target);
    const secrets = target.secretsWithheld
      ? await loadSecrets(tx, row.id)
      : (target.secretsEncrypted as unknown as StoredSecret[]);

    await tx.deployment.update({
      where: { id: row.id },
      data: {
        sourceConfig: asJson(sourceConfig),
        sourceRevisionConfig: asJson(sourceRevisionConfig),
        version: { increment: 1 },
      },
    });
    await replaceSecrets(tx, row.id, secrets);
    const revision = await cutRevision(tx, row.id, {
      source: target.source,
      sourceConfig,
      sourceRevisionConfig,
      secrets,
      // The same image as then, not what its tag names now.
      imageDigest: target.imageDigest,
    });
    await recordAudit(tx, actor, {
      action: "deployment.redeploy",
      targetType: "deployment",
      targetId: row.id,
      data: { from_revision: target.number, revision: revision.number },
    });
    return versioned(await findDeployment(tx, actor, row.id));
  }, lockedTransaction);
}
