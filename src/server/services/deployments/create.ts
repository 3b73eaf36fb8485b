import { env } from "@/env";
import type { CreateDeploymentInput, Deployment } from "@/schemas/deployments";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { badRequest, conflict, isUniqueViolation, notFound } from "@/server/errors";
import { lockWorkspaceListener } from "../listeners/manage";
import { recordAudit } from "../audit/record";
import { attachDeploymentProject } from "../tracing/projects";
import { listIntegrationRepositories } from "../codehost-repos";
import { resolveTagValues } from "../tags";
import { findTemplate } from "../templates";
import {
  checkBuildOnPush,
  checkScales,
  mergeSourceConfig,
  mergeSourceRevisionConfig,
} from "./config";
import { findDeployment, lockedTransaction } from "./find";
import { cutRevision } from "./revisions-cut";
import { mergeSecrets } from "./secrets";
import { asJson, emptySourceConfig, emptySourceRevisionConfig, toDeployment } from "./serialize";
import { checkMode, checkSourceFields } from "./source-rules";

/** Sources whose artifact (an uploaded tarball, a pushed image) can come after the create. */
const artifactLaterSources = new Set(["internal_source", "internal_container"]);

/**
 * An `internal_source`/`internal_container` create with an empty source_revision_config: the
 * deploy client creates first and cuts the first revision with a PATCH once its artifact exists.
 */
export function awaitsArtifact(
  input: Pick<CreateDeploymentInput, "source" | "source_revision_config">,
) {
  return (
    artifactLaterSources.has(input.source) &&
    Object.values(input.source_revision_config).every((v) => v == null)
  );
}

/**
 * Creates a deployment in AWAITING_DATABASE with its first revision QUEUED (contract 5.2), or
 * with no revision when it awaits its artifact (`awaitsArtifact`).
 * Rules are checked before anything is written; the row, secrets, tags, revision and audit
 * entry land in one transaction.
 */
export async function createDeployment(
  db: Db,
  actor: Actor,
  input: CreateDeploymentInput,
  /** Aborted when the client goes away: a code-host listing stops then. */
  signal?: AbortSignal,
): Promise<Deployment> {
  requireRole(actor, "editor");
  checkMode(env.HANGAR_MODE, input.source);
  const awaiting = awaitsArtifact(input);
  checkSourceFields(input.source, input, {
    requireAll: true,
    except: awaiting ? "source_revision_config." : undefined,
  });

  const sourceConfig = mergeSourceConfig(emptySourceConfig, input.source_config);
  const sourceRevisionConfig = mergeSourceRevisionConfig(
    emptySourceRevisionConfig,
    input.source_revision_config,
  );
  checkScales(sourceConfig.resource_spec, sourceConfig.deployment_type);
  checkBuildOnPush(sourceConfig, sourceRevisionConfig);

  if (input.source === "internal_template" && !findTemplate(sourceConfig.template_id ?? "")) {
    throw notFound(`Template ${sourceConfig.template_id} not found.`);
  }
  if (sourceConfig.integration_id) {
    // The repository must be one the integration makes available (asks the code host: 502 if it fails).
    const repos = await listIntegrationRepositories(db, actor, sourceConfig.integration_id, signal);
    if (!repos.some((r) => r.url === sourceConfig.repo_url)) {
      throw badRequest(
        `source_config.repo_url ${sourceConfig.repo_url} is not one of integration ${sourceConfig.integration_id}'s repositories.`,
      );
    }
  }
  const tags = await resolveTagValues(db, actor, input.tag_value_ids ?? []);
  const secrets = mergeSecrets([], input.secrets ?? []);

  try {
    const id = await db.$transaction(async (tx) => {
      if (sourceConfig.listener_id)
        await lockWorkspaceListener(tx, actor, sourceConfig.listener_id);
      const row = await tx.deployment.create({
        data: {
          workspaceId: actor.workspaceId,
          name: input.name,
          source: input.source,
          deploymentType: sourceConfig.deployment_type,
          sourceConfig: asJson(sourceConfig),
          sourceRevisionConfig: asJson(sourceRevisionConfig),
          integrationId: sourceConfig.integration_id,
          repoUrl: sourceConfig.repo_url,
          listenerId: sourceConfig.listener_id,
          imageVersion: input.image_version ?? null,
          trackedPackages: input.tracked_packages ?? [],
          secrets: {
            create: secrets.map((s) => ({ name: s.name, valueEncrypted: s.value_encrypted })),
          },
          secretReferences: {
            create: (input.secret_references ?? []).map((r) => ({
              name: r.name,
              secretName: r.secret_name,
              secretKey: r.secret_key,
            })),
          },
          tags: { create: tags },
        },
      });
      // Its tracing project (same name, same workspace) comes with it, or not at all.
      await attachDeploymentProject(tx, row);
      const revision = awaiting
        ? null
        : await cutRevision(tx, row.id, {
            source: input.source,
            sourceConfig,
            sourceRevisionConfig,
            secrets,
          });
      await recordAudit(tx, actor, {
        action: "deployment.create",
        targetType: "deployment",
        targetId: row.id,
        data: { name: row.name, source: row.source, revision: revision?.number ?? null },
      });
      return row.id;
      // A loaded server (bench:soak) can take longer than Prisma's 5 s default to queue the
      // revision: the create would answer 500 half-way. The same limits as a patch's.
    }, lockedTransaction);
    return toDeployment(await findDeployment(db, actor, id));
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`Deployment with name ${input.name} already exists.`);
    throw error;
  }
}
