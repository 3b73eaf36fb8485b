import { z } from "zod";
import {
  boolQuery,
  csvQuery,
  documentedAs,
  page,
  paginationQuery,
  timestamp,
  uuid,
} from "./common";
import { resourceSpec } from "./resource-spec";

// Deployments (spec 2.3-2.7, contract 5). Field names are the public contract: snake_case.

export const deploymentSources = [
  "codehost",
  "external_container",
  "internal_container",
  "internal_source",
  "internal_template",
] as const;
export const deploymentSource = z.enum(deploymentSources).meta({ id: "DeploymentSource" });
export type DeploymentSource = z.infer<typeof deploymentSource>;

export const revisionSource = z.enum(["codehost", "internal_container", "internal_source"]);

export const deploymentTypes = ["dev_free", "dev", "prod"] as const;
export const deploymentType = z.enum(deploymentTypes).meta({ id: "DeploymentType" });

export const deploymentStatuses = [
  "AWAITING_DATABASE",
  "READY",
  "UNUSED",
  "AWAITING_DELETE",
  "UNKNOWN",
] as const;
export const deploymentStatus = z.enum(deploymentStatuses).meta({ id: "DeploymentStatus" });

export const DEPLOYMENT_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const deploymentName = z
  .string()
  .regex(
    DEPLOYMENT_NAME,
    "Name must be a DNS label: lowercase letters, digits and '-', 1-63 characters, starting and ending with a letter or digit",
  );

export const SECRET_PLACEHOLDER = "********";
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

export const secretInput = z
  .object({
    name: z
      .string()
      .regex(
        SECRET_NAME,
        "Secret names start with a letter or '_' and hold letters, digits and '_'",
      ),
    value: z
      .string()
      .refine(
        (v) => Buffer.byteLength(v, "utf8") <= MAX_SECRET_VALUE_BYTES,
        "Secret values are at most 64 KiB",
      ),
  })
  .meta({ id: "SecretInput" });
export const secretOutput = z
  .object({ name: z.string(), value: z.literal(SECRET_PLACEHOLDER) })
  .meta({
    id: "Secret",
    description: "Secret values are never returned: `value` is a placeholder.",
  });

export const secretReference = z
  .object({
    name: z.string().min(1),
    secret_name: z.string().min(1),
    secret_key: z.string().min(1),
  })
  .meta({ id: "SecretReference" });

function uniqueNames<T extends { name: string }>(label: string) {
  return (items: T[] | null | undefined, ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items?.forEach((item, i) => {
      if (seen.has(item.name))
        ctx.addIssue({
          code: "custom",
          path: [i, "name"],
          message: `${label} "${item.name}" is listed more than once`,
        });
      seen.add(item.name);
    });
  };
}
export const secretsInput = z.array(secretInput).superRefine(uniqueNames("Secret"));
export const secretReferencesInput = z
  .array(secretReference)
  .superRefine(uniqueNames("Secret reference"));

export const listenerConfig = z
  .object({ k8s_namespace: z.string().nullish() })
  .meta({ id: "ListenerConfig" });

/** SourceConfig (2.4) plus the contract's deployment_type and template_id. */
export const sourceConfigInput = z
  .object({
    integration_id: uuid.nullish(),
    repo_url: z.string().min(1).nullish(),
    build_on_push: z.boolean().nullish(),
    custom_url: z.url().nullish(),
    resource_spec: resourceSpec.nullish(),
    listener_id: uuid.nullish(),
    listener_config: listenerConfig.nullish(),
    install_command: z.string().nullish(),
    build_command: z.string().nullish(),
    deployment_type: deploymentType.nullish(),
    template_id: z.string().min(1).nullish(),
  })
  .meta({ id: "SourceConfigInput" });
export type SourceConfigInput = z.infer<typeof sourceConfigInput>;

export const sourceConfigOutput = z
  .object({
    integration_id: uuid.nullable(),
    repo_url: z.string().nullable(),
    build_on_push: z.boolean().nullable(),
    custom_url: z.string().nullable(),
    resource_spec: resourceSpec.nullable(),
    listener_id: uuid.nullable(),
    listener_config: listenerConfig.nullable(),
    install_command: z.string().nullable(),
    build_command: z.string().nullable(),
    deployment_type: deploymentType,
    template_id: z.string().nullable(),
  })
  .meta({ id: "SourceConfig" });
export type SourceConfig = z.infer<typeof sourceConfigOutput>;

/** SourceRevisionConfig (2.5) as sent: repo_commit_sha is set by the service. */
export const sourceRevisionConfigInput = z
  .object({
    repo_ref: z.string().min(1).nullish(),
    graph_config_path: z.string().min(1).nullish(),
    image_uri: z.string().min(1).nullish(),
    source_tarball_path: z.string().min(1).nullish(),
  })
  .meta({ id: "SourceRevisionConfigInput" });
export type SourceRevisionConfigInput = z.infer<typeof sourceRevisionConfigInput>;

export const sourceRevisionConfigOutput = z
  .object({
    repo_ref: z.string().nullable(),
    graph_config_path: z.string().nullable(),
    image_uri: z.string().nullable(),
    source_tarball_path: z.string().nullable(),
    repo_commit_sha: z.string().nullable(),
  })
  .meta({ id: "SourceRevisionConfig" });
export type SourceRevisionConfig = z.infer<typeof sourceRevisionConfigOutput>;

export const tagValueIds = z.array(uuid).max(100);

export const deployment = z
  .object({
    id: uuid,
    tenant_id: uuid,
    name: z.string(),
    source: deploymentSource,
    source_config: sourceConfigOutput,
    source_revision_config: sourceRevisionConfigOutput,
    secrets: z.array(secretOutput),
    secret_references: z.array(secretReference).nullable(),
    image_version: z.string().nullable(),
    tag_value_ids: z.array(uuid),
    status: deploymentStatus,
    latest_revision_id: uuid.nullable(),
    active_revision_id: uuid.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Deployment" });
export type Deployment = z.infer<typeof deployment>;

export const createDeploymentBody = z
  .object({
    name: deploymentName,
    source: deploymentSource,
    source_config: sourceConfigInput,
    source_revision_config: sourceRevisionConfigInput,
    secrets: secretsInput.nullish(),
    secret_references: secretReferencesInput.nullish(),
    image_version: z.string().min(1).max(200).nullish(),
    tag_value_ids: tagValueIds.nullish(),
  })
  .meta({ id: "CreateDeployment" });
export type CreateDeploymentInput = z.infer<typeof createDeploymentBody>;

export const patchDeploymentBody = z
  .object({
    name: z
      .string()
      .nullish()
      .meta({ description: "Immutable: a different value is refused (400)" }),
    source: deploymentSource
      .nullish()
      .meta({ description: "Immutable: a different value is refused (400)" }),
    revision_source: revisionSource.nullish(),
    source_config: sourceConfigInput.nullish(),
    source_revision_config: sourceRevisionConfigInput.nullish(),
    secrets: secretsInput.nullish(),
    secret_references: secretReferencesInput.nullish(),
    tag_value_ids: tagValueIds.nullish(),
  })
  .meta({ id: "PatchDeployment" });
export type PatchDeploymentInput = z.infer<typeof patchDeploymentBody>;

export const listDeploymentsQuery = z.object({
  ...paginationQuery,
  name_contains: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "Case-insensitive substring of the name" }),
  status: csvQuery(deploymentStatus, { description: "Comma-separated deployment statuses" }),
  remote_reconciled: boolQuery,
  tag_value_ids: csvQuery(uuid, {
    max: 100,
    description: "Comma-separated tag value ids; all must match",
  }),
  image_version: z.string().max(200).optional(),
  deployment_type: deploymentType.optional(),
  deployment_ids: csvQuery(uuid, {
    max: 100,
    description: "Comma-separated deployment ids (at most 100)",
  }),
});
export type ListDeploymentsQuery = z.output<typeof listDeploymentsQuery>;

export const deploymentPage = page(deployment).meta({ id: "DeploymentPage" });

export const deploymentIdParams = z.object({ deployment_id: uuid });

export const bulkDeleteQuery = z.object({
  deployment_ids: z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(uuid).min(1).max(100))
    .meta({
      override: documentedAs({
        type: "string",
        description: "Comma-separated deployment ids (1 to 100)",
      }),
    }),
});

export const bulkDeleteResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        status: z
          .number()
          .int()
          .meta({ description: "204 deleted, 404 not found, 403 not allowed" }),
        detail: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "BulkDeleteResult" });
export type BulkDeleteResult = z.infer<typeof bulkDeleteResult>;
