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
import { deploymentSources, deploymentStatuses, deploymentTypes } from "./deployment-values";
import { boundedText, MAX_SECRET_VALUE_BYTES } from "./limits";
import { resourceSpec } from "./resource-spec";
import { deploymentUrl } from "./urls";
import { previewInfo, previewsConfig, previewsConfigInput, previewsFilter } from "./previews";

export { deploymentSources, deploymentStatuses, deploymentTypes, MAX_SECRET_VALUE_BYTES };

// Deployments (spec 2.3-2.7, contract 5). Field names are the public contract: snake_case.

export const deploymentSource = z.enum(deploymentSources).meta({ id: "DeploymentSource" });
export type DeploymentSource = z.infer<typeof deploymentSource>;

/** The reference deploy client's names for the container sources; accepted as aliases. */
export const sourceAliases = {
  internal_docker: "internal_container",
  external_docker: "external_container",
} as const;

/** A source as a request names it: the contract's names or their aliases, mapped to ours. */
const sourceInput = <T extends string>(names: readonly T[], id: string) =>
  z
    .enum([...names, ...(Object.keys(sourceAliases) as (keyof typeof sourceAliases)[])] as [
      string,
      ...string[],
    ])
    .transform((name) => (sourceAliases[name as keyof typeof sourceAliases] ?? name) as T)
    .refine((name) => names.includes(name), {
      message: `Must be one of: ${names.join(", ")}`,
    })
    .meta({
      id,
      description: `One of ${names.join(", ")}; internal_docker and external_docker are aliases of internal_container and external_container.`,
    });

export const revisionSources = ["codehost", "internal_container", "internal_source"] as const;
export const revisionSource = z.enum(revisionSources);
export const deploymentSourceInput = sourceInput(deploymentSources, "DeploymentSourceInput");
export const revisionSourceInput = sourceInput(revisionSources, "RevisionSourceInput");

/** Package names whose installed versions a build reports (the deploy client's `tracked_packages`). */
export const trackedPackages = z.array(z.string().trim().min(1).max(214)).max(100);

export const deploymentType = z.enum(deploymentTypes).meta({ id: "DeploymentType" });

export const deploymentStatus = z.enum(deploymentStatuses).meta({ id: "DeploymentStatus" });

export const DEPLOYMENT_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const deploymentName = z
  .string()
  .regex(
    DEPLOYMENT_NAME,
    "Name must be a DNS label: lowercase letters, digits and '-', 1-63 characters, starting and ending with a letter or digit",
  );

/** UTF-8 size; TextEncoder so these schemas also run in the browser. */
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** repo_url is indexed, and a PostgreSQL index entry must stay under ~2.7 kB. */
export const MAX_REPO_URL_BYTES = 2048;

export const SECRET_PLACEHOLDER = "********";
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const secretInput = z
  .object({
    name: boundedText("secretName").regex(
      SECRET_NAME,
      "Secret names start with a letter or '_' and hold letters, digits and '_'",
    ),
    value: z
      .string()
      .refine((v) => utf8Bytes(v) <= MAX_SECRET_VALUE_BYTES, "Secret values are at most 64 KiB"),
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
    name: boundedText("secretName").min(1),
    secret_name: boundedText("identifier").min(1),
    secret_key: boundedText("identifier").min(1),
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
  .object({ k8s_namespace: boundedText("identifier").nullish() })
  .meta({ id: "ListenerConfig" });

/** SourceConfig (2.4) plus the contract's deployment_type and template_id. */
export const sourceConfigInput = z
  .object({
    integration_id: uuid.nullish(),
    repo_url: z
      .string()
      .min(1)
      .refine((v) => utf8Bytes(v) <= MAX_REPO_URL_BYTES, "repo_url is at most 2048 bytes")
      .nullish(),
    build_on_push: z.boolean().nullish(),
    custom_url: deploymentUrl.nullish(),
    resource_spec: resourceSpec.nullish(),
    listener_id: uuid.nullish(),
    listener_config: listenerConfig.nullish(),
    install_command: boundedText("command").nullish(),
    build_command: boundedText("command").nullish(),
    deployment_type: deploymentType.nullish(),
    template_id: boundedText("identifier").min(1).nullish(),
    previews: previewsConfigInput.nullish(),
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
    previews: previewsConfig.nullable(),
  })
  .meta({ id: "SourceConfig" });
export type SourceConfig = z.infer<typeof sourceConfigOutput>;

/**
 * SourceRevisionConfig (2.5) as sent: repo_commit_sha is set by the service. The deploy client
 * names the graph config `langgraph_config_path`: an alias of `graph_config_path`.
 */
export const sourceRevisionConfigInput = z
  .object({
    repo_ref: boundedText("ref").min(1).nullish(),
    graph_config_path: boundedText("path").min(1).nullish(),
    langgraph_config_path: boundedText("path")
      .min(1)
      .nullish()
      .meta({ description: "Alias of graph_config_path (the reference deploy client's name)" }),
    image_uri: boundedText("image").min(1).nullish(),
    source_tarball_path: boundedText("path").min(1).nullish(),
  })
  .transform(({ langgraph_config_path, ...config }) =>
    langgraph_config_path !== undefined && config.graph_config_path === undefined
      ? { ...config, graph_config_path: langgraph_config_path }
      : config,
  )
  .meta({ id: "SourceRevisionConfigInput" });
export type SourceRevisionConfigInput = z.output<typeof sourceRevisionConfigInput>;

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

/** Where revisions run: a Kubernetes cluster, or nowhere (a dry run). */
export const runtime = z.enum(["kubernetes", "dry_run"]).meta({
  id: "Runtime",
  description:
    "`kubernetes`: applied to the configured cluster and rolled out. `dry_run`: no cluster is configured, so nothing was built or started; the manifests are only recorded.",
});
export type Runtime = z.infer<typeof runtime>;

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
    tracked_packages: z.array(z.string()),
    status: deploymentStatus,
    latest_revision_id: uuid.nullable(),
    active_revision_id: uuid.nullable(),
    runtime: runtime.nullable().meta({
      description:
        "Where the active revision runs (`kubernetes`), or that it runs nowhere (`dry_run`: nothing was started); null until a revision is deployed.",
    }),
    preview: previewInfo.nullable().meta({
      description: "Set on a preview deployment of a pull request (contract 5.6); null otherwise",
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Deployment" });
export type Deployment = z.infer<typeof deployment>;

export const createDeploymentBody = z
  .object({
    name: deploymentName,
    source: deploymentSourceInput,
    source_config: sourceConfigInput,
    source_revision_config: sourceRevisionConfigInput,
    secrets: secretsInput.nullish(),
    secret_references: secretReferencesInput.nullish(),
    image_version: z.string().min(1).max(200).nullish(),
    tag_value_ids: tagValueIds.nullish(),
    tracked_packages: trackedPackages.nullish(),
  })
  .meta({ id: "CreateDeployment" });
export type CreateDeploymentInput = z.output<typeof createDeploymentBody>;

export const patchDeploymentBody = z
  .object({
    name: z
      .string()
      .nullish()
      .meta({ description: "Immutable: a different value is refused (400)" }),
    source: deploymentSourceInput
      .nullish()
      .meta({ description: "Immutable: a different value is refused (400)" }),
    revision_source: revisionSourceInput.nullish(),
    source_config: sourceConfigInput.nullish(),
    source_revision_config: sourceRevisionConfigInput.nullish(),
    secrets: secretsInput.nullish(),
    secret_references: secretReferencesInput.nullish(),
    tag_value_ids: tagValueIds.nullish(),
    tracked_packages: trackedPackages
      .nullish()
      .meta({ description: "Replaces the list; cuts no revision by itself" }),
  })
  .meta({ id: "PatchDeployment" });
export type PatchDeploymentInput = z.output<typeof patchDeploymentBody>;

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
  previews: previewsFilter,
  parent_id: uuid.optional().meta({ description: "Only the previews of this deployment" }),
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
