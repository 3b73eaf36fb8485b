import type { DeploymentSource, Revision as RevisionRow } from "@/generated/prisma/client";
import type { SourceRevisionConfig } from "@/schemas/deployments";
import type { PromoteRevisionBody } from "@/schemas/revisions";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { badRequest, conflict } from "@/server/errors";
import { recordAudit } from "../audit/record";
import { findDeployment, lockDeployment, lockedTransaction } from "../deployments/find";
import { versioned, type VersionedDeployment } from "../deployments/read";
import { cutRevision } from "../deployments/revisions-cut";
import { loadSecrets } from "../deployments/secrets";
import { asJson, emptySourceRevisionConfig, toDeployment } from "../deployments/serialize";
import { checkPromoteTarget } from "../previews/rules";
import { findRevision } from "./history";

// Promotion (contract 6): a revision's image, pinned by digest, runs on another deployment of
// the workspace with that deployment's own configuration. Nothing is built.

/** Sources whose revisions run an image as named: the promoted image replaces theirs. */
const CONTAINER_SOURCES: readonly DeploymentSource[] = ["internal_container", "external_container"];
const BUILT_SOURCES: readonly DeploymentSource[] = ["codehost", "internal_source"];
const UNFINISHED = ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING"];

/** Why a revision without a digest has no image to promote, in the user's terms. */
function noImageReason(row: RevisionRow): string {
  if (UNFINISHED.includes(row.status)) {
    return `its image is not ready yet (status ${row.status})`;
  }
  if (!row.imageRef) return `it has no image (status ${row.status})`;
  if (BUILT_SOURCES.includes(row.source)) {
    return "it was built in a dry run (no image builder or container registry is configured: HANGAR_BUILDER, HANGAR_REGISTRY_URL), so no image was pushed";
  }
  return `its image ${row.imageRef} is not in Hangar's registry, so it has no digest to pin`;
}

/** The revision's image by digest (`host/repository@sha256:...`), or the contract's 409. */
function pinnedImageOf(row: RevisionRow): { image: string; digest: string } {
  const digest = row.imageDigest;
  if (!digest || !row.imageRef?.endsWith(`@${digest}`)) {
    throw conflict(`Revision ${row.number} has no image to promote: ${noImageReason(row)}.`);
  }
  return { image: row.imageRef, digest };
}

/**
 * Cuts a revision on the target deployment that runs the source revision's image by digest,
 * with the target's own source_config (resources, ...) and secrets. Container targets keep their
 * source and take the pinned image as their image_uri (so later changes keep it); other targets
 * get an `internal_container` revision and keep their own source, so their next push, upload or
 * patch builds from it again. Answers the target deployment, like a redeploy.
 */
export async function promoteRevision(
  db: Db,
  actor: Actor,
  deploymentId: string,
  revisionId: string,
  body: PromoteRevisionBody,
): Promise<VersionedDeployment> {
  requireRole(actor, "editor");
  return db.$transaction(async (tx) => {
    const from = await findDeployment(tx, actor, deploymentId);
    const source = await findRevision(tx, from.id, revisionId);
    if (body.target_deployment_id === from.id) {
      throw badRequest(
        "target_deployment_id is the revision's own deployment: promotion runs an image on another deployment (to run this revision again here, redeploy it).",
      );
    }
    // Every object the request names is found (or 404) before the image is judged.
    const target = await lockDeployment(tx, actor, body.target_deployment_id);
    checkPromoteTarget(target);
    const { image, digest } = pinnedImageOf(source);
    const keepsSource = CONTAINER_SOURCES.includes(target.source);
    const sourceConfig = toDeployment(target).source_config;
    const sourceRevisionConfig: SourceRevisionConfig = {
      ...emptySourceRevisionConfig,
      image_uri: image,
    };
    await tx.deployment.update({
      where: { id: target.id },
      data: {
        ...(keepsSource ? { sourceRevisionConfig: asJson(sourceRevisionConfig) } : {}),
        version: { increment: 1 },
      },
    });
    const revision = await cutRevision(tx, target.id, {
      source: keepsSource ? target.source : "internal_container",
      sourceConfig,
      sourceRevisionConfig,
      secrets: await loadSecrets(tx, target.id),
      imageDigest: digest,
      promotedFrom: {
        deployment_id: from.id,
        deployment_name: from.name,
        revision_id: source.id,
        revision_number: source.number,
      },
    });
    await recordAudit(tx, actor, {
      action: "deployment.promote",
      targetType: "deployment",
      targetId: target.id,
      data: {
        name: target.name,
        from_deployment_id: from.id,
        from_deployment: from.name,
        from_revision: source.number,
        image_digest: digest,
        revision: revision.number,
      },
    });
    return versioned(await findDeployment(tx, actor, target.id));
  }, lockedTransaction);
}
