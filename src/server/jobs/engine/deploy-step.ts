import { createHmac } from "node:crypto";
import { env } from "@/env";
import type { SourceConfig } from "@/schemas/deployments";
import { decrypt } from "@/server/crypto";
import type { DbClient } from "@/server/db";
import type { StoredSecret } from "@/server/services/deployments/secrets";
import { asJson } from "@/server/services/deployments/serialize";
import type { Runtime } from "@/generated/prisma/client";
import { deploymentUrlOf } from "@/server/services/deployments/url";
import { tracingEndpoint } from "@/server/services/tracing/endpoint";
import { issueIngestKey, revokeSupersededIngestKeys } from "@/server/services/tracing/ingest-keys";
import { StepFailure } from "../drivers";
import { DRY_RUN_MESSAGE } from "../drivers/recording";
import {
  redactManifests,
  renderManifests,
  type KubernetesObject,
  type RenderInput,
} from "../manifests";
import { handToListener } from "./listener-handoff";
import {
  advance,
  withSecretReferences,
  type EngineContext,
  type EngineRevision,
  type ManifestRevision,
} from "./context";

/** Derived, so nothing new is stored: the same deployment always gets the same password. */
export function databasePasswordOf(deploymentId: string): string {
  return createHmac("sha256", env.HANGAR_ENCRYPTION_KEY ?? "")
    .update(`database-password:${deploymentId}`)
    .digest("hex");
}

/**
 * What the revision's pods trace with (contract 15.7): the endpoint, its deployment's project
 * and the revision's ingest key (recorded here). Null when no address of Hangar is configured:
 * the pods then get no tracing environment.
 */
export async function tracingOf(
  db: DbClient,
  revision: Pick<EngineRevision, "id" | "deployment">,
): Promise<RenderInput["tracing"]> {
  const endpoint = tracingEndpoint();
  if (!endpoint) return null;
  const issued = await issueIngestKey(db, revision);
  return { endpoint, project: issued.project, key: issued.key };
}

export function manifestsOf(
  revision: Pick<
    ManifestRevision,
    "deployment" | "imageRef" | "sourceConfig" | "id" | "number" | "secretsEncrypted"
  >,
  tracing: RenderInput["tracing"] = null,
): KubernetesObject[] {
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
    url: urlOf(revision),
    tracing,
  });
}

/** The revision's URL: the custom_url it was cut with, else the configured template's. */
export const urlOf = (revision: Pick<EngineRevision, "deployment" | "sourceConfig">) =>
  deploymentUrlOf({
    id: revision.deployment.id,
    name: revision.deployment.name,
    customUrl: (revision.sourceConfig as SourceConfig).custom_url ?? null,
  });

/** AWAITING_DEPLOY -> DEPLOYING: nothing to wait for once built (one revision is in flight). */
export const startDeploy = (ctx: EngineContext, revision: EngineRevision) =>
  revision.deployment.listenerId
    ? handToListener(ctx, revision, revision.deployment.listenerId)
    : advance(ctx, revision.id, {
        from: ["AWAITING_DEPLOY"],
        to: "DEPLOYING",
        stream: "deploy",
        lines: [`Deploying ${revision.imageRef} (${ctx.drivers.deployer.name})`],
      });

/** The revision's final message: what runs now, or that nothing does (a dry run). */
function deployedMessage(runtime: Runtime, number: number): string {
  return runtime === "dry_run" ? DRY_RUN_MESSAGE : `Revision ${number} is running on Kubernetes.`;
}

/**
 * DEPLOYING: render and apply the objects and, on a cluster, wait for the rollout. DEPLOYED
 * moves the deployment's active revision and makes it READY in the same transaction; a failed
 * rollout ends DEPLOY_FAILED with the cluster's reason and leaves the active revision as it
 * was. Only redacted manifests are stored.
 */
export async function deployStep(ctx: EngineContext, revision: EngineRevision): Promise<void> {
  // A listener applies it and reports back (listener-handoff.ts); Hangar only waits.
  if (revision.deployment.listenerId) return;
  const { deployer } = ctx.drivers;
  let objects: KubernetesObject[];
  let applied;
  try {
    objects = manifestsOf(
      await withSecretReferences(ctx.db, revision),
      await tracingOf(ctx.db, revision),
    );
    applied = await deployer.apply(objects);
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    const active = await activeRevisionNumber(ctx, revision.deploymentId);
    await advance(ctx, revision.id, {
      from: ["DEPLOYING"],
      to: "DEPLOY_FAILED",
      message: error.message,
      stream: "deploy",
      lines: [
        ...error.lines,
        error.message,
        ...(active ? [`Revision ${active} stays active.`] : []),
      ],
    });
    return;
  }
  const message = deployedMessage(deployer.runtime, revision.number);
  const deployed = await advance(ctx, revision.id, {
    from: ["DEPLOYING"],
    to: "DEPLOYED",
    message,
    data: { manifests: asJson(redactManifests(objects)), runtime: deployer.runtime },
    stream: "deploy",
    lines: [
      ...applied.lines,
      ...(urlOf(revision) ? [`URL ${urlOf(revision)}`] : []),
      `Revision ${revision.number} deployed`,
    ],
    also: async (tx) => {
      await tx.deployment.updateMany({
        where: { id: revision.deploymentId, status: { not: "AWAITING_DELETE" } },
        data: { activeRevisionId: revision.id, status: "READY", runtime: deployer.runtime },
      });
      // The earlier revisions' pods are gone: their tracing ingest keys with them.
      await revokeSupersededIngestKeys(tx, revision.deploymentId, revision.id);
      // The deployment shows the URL it is served at (unless a user chose one).
      const url = urlOf(revision);
      if (url)
        await tx.$executeRaw`
          UPDATE deployments
          SET source_config = jsonb_set(source_config, '{custom_url}', to_jsonb(${url}::text))
          WHERE id = ${revision.deploymentId}::uuid
            AND COALESCE(source_config->>'custom_url', '') = ''`;
    },
  });
  if (deployed) return ctx.onDeployed?.(revision.deploymentId);
  // Interrupted while applying: if the deployment is going away, take back what was applied.
  const deployment = await ctx.db.deployment.findUnique({ where: { id: revision.deploymentId } });
  if (!deployment || deployment.status === "AWAITING_DELETE")
    await ctx.drivers.deployer.teardown(objects);
}

async function activeRevisionNumber(ctx: EngineContext, deploymentId: string) {
  const deployment = await ctx.db.deployment.findUnique({
    where: { id: deploymentId },
    select: { activeRevisionId: true },
  });
  if (!deployment?.activeRevisionId) return null;
  const active = await ctx.db.revision.findUnique({
    where: { id: deployment.activeRevisionId },
    select: { number: true },
  });
  return active?.number ?? null;
}
