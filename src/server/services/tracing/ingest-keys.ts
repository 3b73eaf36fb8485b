import { ingestKeyOf } from "@/server/auth/ingest-keys";
import type { DbClient } from "@/server/db";
import { attachDeploymentProject } from "./projects";

// The ingest keys of deployments (contract 15.7): one per revision, written into its pods'
// environment. Rotation: when a revision goes live, the keys of its deployment's other revisions
// are revoked; deleting the deployment revokes them all (and its rows go with it).

export interface IssuedIngestKey {
  key: string;
  /** The deployment's tracing project, the only one the key writes into. */
  project: string;
}

/**
 * The revision's key, recorded (by its hash) the first time its manifests are rendered; a
 * retried render gets the same key and records nothing new. A deployment without a project (made
 * before tracing) gets its project first.
 */
export async function issueIngestKey(
  db: DbClient,
  revision: { id: string; deployment: { id: string; workspaceId: string; name: string } },
): Promise<IssuedIngestKey> {
  const { deployment } = revision;
  let project = await db.tracingProject.findUnique({ where: { deploymentId: deployment.id } });
  if (!project) {
    await attachDeploymentProject(db, deployment);
    project = await db.tracingProject.findUniqueOrThrow({ where: { deploymentId: deployment.id } });
  }
  const { key, prefix, hash } = ingestKeyOf(revision.id);
  await db.tracingIngestKey.createMany({
    data: [
      {
        workspaceId: deployment.workspaceId,
        deploymentId: deployment.id,
        revisionId: revision.id,
        projectId: project.id,
        prefix,
        keyHash: hash,
      },
    ],
    skipDuplicates: true,
  });
  return { key, project: project.name };
}

/** In the transaction that makes `liveRevisionId` the deployment's active revision. */
export async function revokeSupersededIngestKeys(
  tx: DbClient,
  deploymentId: string,
  liveRevisionId: string,
): Promise<void> {
  await tx.tracingIngestKey.updateMany({
    where: { deploymentId, revisionId: { not: liveRevisionId }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** In the transaction that marks the deployment for deletion. */
export async function revokeDeploymentIngestKeys(
  tx: DbClient,
  deploymentId: string,
): Promise<void> {
  await tx.tracingIngestKey.updateMany({
    where: { deploymentId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
