import type { DeploymentSource } from "./deployments";

// Which fields each source requires and allows (contract 5.2), as data: the API enforces it and
// the dashboard shows only the fields a deployment's source can hold.

export type ConfigField =
  | "source_config.integration_id"
  | "source_config.repo_url"
  | "source_config.build_on_push"
  | "source_config.previews"
  | "source_config.listener_id"
  | "source_config.listener_config"
  | "source_config.install_command"
  | "source_config.build_command"
  | "source_config.template_id"
  | "source_revision_config.repo_ref"
  | "source_revision_config.graph_config_path"
  | "source_revision_config.image_uri"
  | "source_revision_config.source_tarball_path"
  | "secret_references";

export const sourceRules: Record<
  DeploymentSource,
  { required: ConfigField[]; allowed: ConfigField[] }
> = {
  codehost: {
    required: [
      "source_config.integration_id",
      "source_config.repo_url",
      "source_revision_config.repo_ref",
      "source_revision_config.graph_config_path",
    ],
    allowed: [
      "source_config.build_on_push",
      "source_config.previews",
      "source_config.install_command",
      "source_config.build_command",
    ],
  },
  external_container: {
    required: ["source_revision_config.image_uri"],
    allowed: ["secret_references", "source_config.listener_id", "source_config.listener_config"],
  },
  internal_container: { required: ["source_revision_config.image_uri"], allowed: [] },
  internal_source: {
    required: [
      "source_revision_config.source_tarball_path",
      "source_revision_config.graph_config_path",
    ],
    allowed: ["source_config.install_command", "source_config.build_command"],
  },
  internal_template: { required: ["source_config.template_id"], allowed: [] },
};

/** Fields every source may carry. */
export const everywhere: ReadonlySet<string> = new Set([
  "source_config.custom_url",
  "source_config.resource_spec",
  "source_config.deployment_type",
]);

/** True when a deployment of `source` may hold `field` (e.g. `source_config.build_on_push`). */
export function sourceAllows(source: DeploymentSource, field: string): boolean {
  const rule = sourceRules[source];
  return (
    everywhere.has(field) ||
    (rule.required as string[]).includes(field) ||
    (rule.allowed as string[]).includes(field)
  );
}
