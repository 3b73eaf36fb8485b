import type { Prisma } from "@/generated/prisma/client";
import {
  SECRET_PLACEHOLDER,
  type Deployment,
  type SourceConfig,
  type SourceRevisionConfig,
} from "@/schemas/deployments";
import type { PreviewInfo } from "@/schemas/previews";

/** What every read of a deployment loads beside the row. */
export const deploymentInclude = {
  secrets: { select: { name: true }, orderBy: { name: "asc" } },
  secretReferences: { orderBy: { name: "asc" } },
  tags: { select: { tagValueId: true } },
} satisfies Prisma.DeploymentInclude;

export type DeploymentRow = Prisma.DeploymentGetPayload<{ include: typeof deploymentInclude }>;

/** What `toDeployment` reads: a full row, or the list's single-query projection of one. */
export type DeploymentView = Pick<
  DeploymentRow,
  | "id"
  | "workspaceId"
  | "name"
  | "source"
  | "status"
  | "sourceConfig"
  | "sourceRevisionConfig"
  | "imageVersion"
  | "latestRevisionId"
  | "activeRevisionId"
  | "createdAt"
  | "updatedAt"
  | "runtime"
  | "trackedPackages"
  | "parentId"
  | "preview"
  | "secrets"
  | "tags"
> & {
  secretReferences: Pick<
    DeploymentRow["secretReferences"][number],
    "name" | "secretName" | "secretKey"
  >[];
};

export const emptySourceConfig: SourceConfig = {
  integration_id: null,
  repo_url: null,
  build_on_push: null,
  custom_url: null,
  resource_spec: null,
  listener_id: null,
  listener_config: null,
  install_command: null,
  build_command: null,
  deployment_type: "dev",
  template_id: null,
  previews: null,
};

export const emptySourceRevisionConfig: SourceRevisionConfig = {
  repo_ref: null,
  graph_config_path: null,
  image_uri: null,
  source_tarball_path: null,
  repo_commit_sha: null,
};

/** The contract's Deployment: secret values are always the placeholder. */
export function toDeployment(row: DeploymentView): Deployment {
  return {
    id: row.id,
    tenant_id: row.workspaceId,
    name: row.name,
    source: row.source,
    source_config: { ...emptySourceConfig, ...(row.sourceConfig as Partial<SourceConfig>) },
    source_revision_config: {
      ...emptySourceRevisionConfig,
      ...(row.sourceRevisionConfig as Partial<SourceRevisionConfig>),
    },
    secrets: row.secrets.map((s) => ({ name: s.name, value: SECRET_PLACEHOLDER })),
    secret_references:
      row.source === "external_container"
        ? row.secretReferences.map((r) => ({
            name: r.name,
            secret_name: r.secretName,
            secret_key: r.secretKey,
          }))
        : null,
    image_version: row.imageVersion,
    tag_value_ids: row.tags.map((t) => t.tagValueId).sort(),
    tracked_packages: row.trackedPackages,
    status: row.status,
    latest_revision_id: row.latestRevisionId,
    active_revision_id: row.activeRevisionId,
    runtime: row.runtime,
    preview: row.preview
      ? { parent_id: row.parentId, ...(row.preview as Omit<PreviewInfo, "parent_id">) }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A weak ETag from the row's version: every mutation bumps it. */
export const etagOf = (row: { id: string; version: number }) => `W/"${row.id}.${row.version}"`;

/** Our config objects are JSON by construction (zod-parsed); Prisma's JSON input type is narrower. */
export const asJson = (value: object): Prisma.InputJsonValue => value as Prisma.InputJsonValue;
