import { createHmac } from "node:crypto";
import { env } from "@/env";
import type { SourceConfig } from "@/schemas/deployments";
import { decrypt } from "@/server/crypto";
import type { StoredSecret } from "@/server/services/deployments/secrets";
import { asJson } from "@/server/services/deployments/serialize";
import { StepFailure } from "../drivers";
import { redactManifests, renderManifests, type KubernetesObject } from "../manifests";
import { advance, type EngineContext, type EngineRevision } from "./context";

/** Derived, so nothing new is stored: the same deployment always gets the same password. */
export function databasePasswordOf(deploymentId: string): string {
  return createHmac("sha256", env.HANGAR_ENCRYPTION_KEY ?? "")
    .update(`database-password:${deploymentId}`)
    .digest("hex");
}

export function manifestsOf(revision: EngineRevision): KubernetesObject[] {
  const { deployment } = revision;
  if (!revision.imageRef) throw new StepFailure("The revision has no image to deploy.");
  const sourceConfig = revision.sourceConfig as SourceConfig;
  return renderManifests({
    deployment: {
      id: deployment.id,
      name: deployment.name,
      workspaceId: deployment.workspaceId,
      deploymentType: deployment.deploymentType,
    },
    revision: {
      id: revision.id,
      number: revision.number,
      imageRef: revision.imageRef,
      sourceConfig: {
        resource_spec: sourceConfig.resource_spec ?? null,
        listener_config: sourceConfig.listener_config ?? null,
      },
      secrets: (revision.secretsEncrypted as unknown as StoredSecret[]).map((s) => ({
        name: s.name,
        value: decrypt(s.value_encrypted),
      })),
      secretReferences: deployment.secretReferences.map((r) => ({
        name: r.name,
        secret_name: r.secretName,
        secret_key: r.secretKey,
      })),
    },
    databasePassword: databasePasswordOf(deployment.id),
  });
}

/** AWAITING_DEPLOY -> DEPLOYING: nothing to wait for once built (one revision is in flight). */
export const startDeploy = (ctx: EngineContext, revision: EngineRevision) =>
  advance(ctx, revision.id, {
    from: ["AWAITING_DEPLOY"],
    to: "DEPLOYING",
    stream: "deploy",
    lines: [`Deploying ${revision.imageRef} (${ctx.drivers.deployer.name})`],
  });

/**
 * DEPLOYING: render and apply the objects; DEPLOYED moves the deployment's active revision and
 * makes it READY in the same transaction. Only redacted manifests are stored.
 */
export async function deployStep(ctx: EngineContext, revision: EngineRevision): Promise<void> {
  let objects: KubernetesObject[];
  let applied;
  try {
    objects = manifestsOf(revision);
    applied = await ctx.drivers.deployer.apply(objects);
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    await advance(ctx, revision.id, {
      from: ["DEPLOYING"],
      to: "DEPLOY_FAILED",
      message: error.message,
      stream: "deploy",
      lines: [error.message],
    });
    return;
  }
  const deployed = await advance(ctx, revision.id, {
    from: ["DEPLOYING"],
    to: "DEPLOYED",
    data: { manifests: asJson(redactManifests(objects)) },
    stream: "deploy",
    lines: [...applied.lines, `Revision ${revision.number} deployed`],
    also: async (tx) => {
      await tx.deployment.updateMany({
        where: { id: revision.deploymentId, status: { not: "AWAITING_DELETE" } },
        data: { activeRevisionId: revision.id, status: "READY" },
      });
    },
  });
  if (deployed) return;
  // Interrupted while applying: if the deployment is going away, take back what was applied.
  const deployment = await ctx.db.deployment.findUnique({ where: { id: revision.deploymentId } });
  if (!deployment || deployment.status === "AWAITING_DELETE")
    await ctx.drivers.deployer.teardown(objects);
}
