import type { DeploymentSource } from "@/schemas/deployments";
import { AppError, badRequest } from "@/server/errors";

// Which fields each source requires and allows (contract 5.2), as data.

type ConfigField =
  | "source_config.integration_id"
  | "source_config.repo_url"
  | "source_config.build_on_push"
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
const everywhere = new Set([
  "source_config.custom_url",
  "source_config.resource_spec",
  "source_config.deployment_type",
]);

export const managedSources: DeploymentSource[] = [
  "codehost",
  "internal_container",
  "internal_source",
  "internal_template",
];

/** The service's mode decides which sources it accepts. */
export function checkMode(mode: "managed" | "self_hosted", source: DeploymentSource): void {
  const accepted =
    mode === "managed" ? managedSources.includes(source) : source === "external_container";
  if (!accepted) {
    const allowed = mode === "managed" ? managedSources.join(", ") : "external_container";
    throw badRequest(
      `Source ${source} is not available in ${mode} mode; this service accepts: ${allowed}.`,
    );
  }
}

export interface ConfigValues {
  source_config?: Record<string, unknown> | null;
  source_revision_config?: Record<string, unknown> | null;
  secret_references?: unknown[] | null;
}

function present(values: ConfigValues, field: string): boolean {
  if (field === "secret_references") return (values.secret_references?.length ?? 0) > 0;
  const [group, key] = field.split(".") as ["source_config" | "source_revision_config", string];
  const value = values[group]?.[key];
  return value !== null && value !== undefined;
}

/**
 * Refuses (400) a field the source does not allow; with `requireAll`, also a missing required one.
 * Fields are named as the request names them, e.g. `source_config.listener_id`.
 */
export function checkSourceFields(
  source: DeploymentSource,
  values: ConfigValues,
  options: { requireAll: boolean },
): void {
  const rule = sourceRules[source];
  const allowed = new Set<string>([...everywhere, ...rule.required, ...rule.allowed]);
  for (const group of ["source_config", "source_revision_config"] as const) {
    for (const key of Object.keys(values[group] ?? {})) {
      const field = `${group}.${key}`;
      if (present(values, field) && !allowed.has(field)) {
        throw new AppError("bad_request", `${field} is not allowed for source ${source}.`);
      }
    }
  }
  if (present(values, "secret_references") && !allowed.has("secret_references")) {
    throw badRequest(`secret_references are only applicable for source external_container.`);
  }
  if (options.requireAll) {
    for (const field of rule.required) {
      if (!present(values, field)) throw badRequest(`${field} is required for source ${source}.`);
    }
  }
}
