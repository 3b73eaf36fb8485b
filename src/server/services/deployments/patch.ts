import { env } from "@/env";
import type { DeploymentSource } from "@/generated/prisma/client";
import {
  SECRET_PLACEHOLDER,
  type PatchDeploymentInput,
  type SourceRevisionConfig,
} from "@/schemas/deployments";
import {
  changesThatCutRevision,
  revisionSourceConfigFields,
  sameJson,
  settingChanges,
} from "@/schemas/revision-rules";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db, DbClient } from "@/server/db";
import { badRequest } from "@/server/errors";
import { diffJson } from "../audit/diff";
import { checkPreviewPatch } from "../previews/rules";
import { recordAudit } from "../audit/record";
import { resolveTagValues } from "../tags";
import {
  checkBuildOnPush,
  checkScales,
  mergeSourceConfig,
  mergeSourceRevisionConfig,
} from "./config";
import { findDeployment, lockDeployment, lockedTransaction } from "./find";
import { checkIfMatch, checkImmutable, checkPatchedFields } from "./patch-rules";
import { versioned, type VersionedDeployment } from "./read";
import { cutRevision } from "./revisions-cut";
import {
  loadSecrets,
  mergeSecrets,
  replaceSecrets,
  sameSecrets,
  type StoredSecret,
} from "./secrets";
import { asJson, emptySourceRevisionConfig, etagOf, toDeployment } from "./serialize";
import { checkMode } from "./source-rules";

/**
 * Patches a deployment (contract 5.4) with its row locked, so concurrent patches run one after
 * another and none is lost. Cuts a new revision when the revision's configuration changes or a
 * source_revision_config is sent; a patch that changes nothing writes nothing and keeps the ETag.
 */
export async function patchDeployment(
  db: Db,
  actor: Actor,
  id: string,
  input: PatchDeploymentInput,
  options: { ifMatch?: string | null } = {},
): Promise<VersionedDeployment> {
  requireRole(actor, "editor");
  if (input.revision_source) checkMode(env.HANGAR_MODE, input.revision_source);

  return db.$transaction(async (tx) => {
    const row = await lockDeployment(tx, actor, id);
    checkIfMatch(options.ifMatch, etagOf(row));
    const before = toDeployment(row);
    checkImmutable({ name: row.name, source: row.source, config: before.source_config }, input);
    checkPreviewPatch(row, input);

    const latestSource = await latestRevisionSource(tx, row.latestRevisionId, row.source);
    // A patch that leaves the revision alone keeps its source, even an earlier override.
    const touchesRevision =
      input.revision_source != null ||
      input.secrets != null ||
      Object.values(input.source_revision_config ?? {}).some((v) => v !== undefined) ||
      revisionSourceConfigFields.some((key) => input.source_config?.[key] !== undefined);
    const revisionSource = touchesRevision ? (input.revision_source ?? row.source) : latestSource;

    const sourceConfig = mergeSourceConfig(before.source_config, input.source_config);
    const sourceRevisionConfig: SourceRevisionConfig = touchesRevision
      ? {
          ...mergeSourceRevisionConfig(
            revisionSource === latestSource
              ? before.source_revision_config
              : await lastConfigOfSource(tx, row.id, revisionSource),
            input.source_revision_config,
          ),
          repo_commit_sha: null,
        }
      : before.source_revision_config;
    checkPatchedFields(
      row.source,
      revisionSource,
      { sourceConfig, sourceRevisionConfig, secretReferences: input.secret_references },
      touchesRevision || input.source_revision_config != null || row.latestRevisionId != null,
    );
    checkScales(sourceConfig.resource_spec, sourceConfig.deployment_type);
    checkBuildOnPush(sourceConfig, sourceRevisionConfig);

    const storedSecrets = await loadSecrets(tx, row.id);
    const secrets = input.secrets ? patchedSecrets(storedSecrets, input.secrets) : storedSecrets;
    const tags = input.tag_value_ids
      ? await resolveTagValues(tx, actor, input.tag_value_ids)
      : null;

    const revisionChanges = changesThatCutRevision(
      {
        source: latestSource,
        source_config: before.source_config,
        source_revision_config: before.source_revision_config,
        secrets: storedSecrets,
      },
      {
        source: revisionSource,
        source_config: sourceConfig,
        source_revision_config: sourceRevisionConfig,
        secrets,
      },
      sameSecrets,
    );
    const otherChanges = [
      ...settingChanges(before.source_config, sourceConfig),
      tags &&
        !sameSet(
          tags.map((t) => t.tagValueId),
          before.tag_value_ids,
        ) &&
        "tag_value_ids",
      input.secret_references &&
        !sameJson(byName(input.secret_references), byName(before.secret_references ?? [])) &&
        "secret_references",
    ].filter((field): field is string => !!field);
    // Re-sending a revision config is a request for a new revision: the same image tag or
    // tarball path may hold new content (contract 5.4).
    if (input.source_revision_config && revisionChanges.length === 0)
      revisionChanges.push("source_revision_config");
    if (input.tracked_packages && !sameJson(input.tracked_packages, row.trackedPackages))
      otherChanges.push("tracked_packages");
    const changed = [...revisionChanges, ...otherChanges];
    if (changed.length === 0) return versioned(row);

    await tx.deployment.update({
      where: { id: row.id },
      data: {
        sourceConfig: asJson(sourceConfig),
        ...(revisionChanges.length ? { sourceRevisionConfig: asJson(sourceRevisionConfig) } : {}),
        ...(input.tracked_packages ? { trackedPackages: input.tracked_packages } : {}),
        version: { increment: 1 },
      },
    });
    if (changed.includes("secrets")) await replaceSecrets(tx, row.id, secrets);
    if (tags && changed.includes("tag_value_ids")) {
      await tx.deploymentTag.deleteMany({ where: { deploymentId: row.id } });
      await tx.deploymentTag.createMany({
        data: tags.map((t) => ({ deploymentId: row.id, ...t })),
      });
    }
    if (input.secret_references && changed.includes("secret_references")) {
      await tx.secretReference.deleteMany({ where: { deploymentId: row.id } });
      await tx.secretReference.createMany({
        data: input.secret_references.map((r) => ({
          deploymentId: row.id,
          name: r.name,
          secretName: r.secret_name,
          secretKey: r.secret_key,
        })),
      });
    }
    const revision = revisionChanges.length
      ? await cutRevision(tx, row.id, {
          source: revisionSource,
          sourceConfig,
          sourceRevisionConfig,
          secrets,
        })
      : null;
    await recordAudit(tx, actor, {
      action: "deployment.update",
      targetType: "deployment",
      targetId: row.id,
      data: {
        name: row.name,
        fields: changed,
        changes: asJson(
          diffJson(
            settingsOf(before),
            settingsOf({
              source_config: sourceConfig,
              source_revision_config: sourceRevisionConfig,
            }),
          ),
        ),
        revision: revision?.number ?? null,
      },
    });
    return versioned(await findDeployment(tx, actor, row.id));
  }, lockedTransaction);
}

async function latestRevisionSource(
  tx: DbClient,
  latestRevisionId: string | null,
  fallback: DeploymentSource,
): Promise<DeploymentSource> {
  if (!latestRevisionId) return fallback;
  const latest = await tx.revision.findUnique({
    where: { id: latestRevisionId },
    select: { source: true },
  });
  return latest?.source ?? fallback;
}

/** The revision config this deployment last used with `source` (empty if it never did). */
async function lastConfigOfSource(
  tx: DbClient,
  deploymentId: string,
  source: DeploymentSource,
): Promise<SourceRevisionConfig> {
  const previous = await tx.revision.findFirst({
    where: { deploymentId, source },
    orderBy: { number: "desc" },
    select: { sourceRevisionConfig: true },
  });
  return {
    ...emptySourceRevisionConfig,
    ...(previous?.sourceRevisionConfig as Partial<SourceRevisionConfig> | undefined),
  };
}

/** The placeholder keeps a stored value; for a name with no stored value it means nothing. */
function patchedSecrets(
  stored: StoredSecret[],
  requested: { name: string; value: string }[],
): StoredSecret[] {
  const unknown = requested.find(
    (s) => s.value === SECRET_PLACEHOLDER && !stored.some((k) => k.name === s.name),
  );
  if (unknown) {
    throw badRequest(
      `Secret ${unknown.name} has no stored value to keep: send its value instead of ${SECRET_PLACEHOLDER}.`,
    );
  }
  return mergeSecrets(stored, requested);
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === new Set(b).size;

const byName = <T extends { name: string }>(items: T[]) =>
  [...items].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));

/** What the audit diff compares: the configuration without the resolved commit. */
const settingsOf = (d: {
  source_config: unknown;
  source_revision_config: SourceRevisionConfig;
}) => ({
  source_config: d.source_config,
  source_revision_config: { ...d.source_revision_config, repo_commit_sha: undefined },
});
