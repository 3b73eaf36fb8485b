import type { DeploymentSource } from "@/schemas/deployments";
import { everywhere, sourceRules } from "@/schemas/source-rules";
import { AppError, badRequest } from "@/server/errors";

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
 * Refuses (400) a field the source does not allow; with `requireAll`, also a missing required one
 * (except those whose name starts with `except`).
 * Fields are named as the request names them, e.g. `source_config.listener_id`.
 */
export function checkSourceFields(
  source: DeploymentSource,
  values: ConfigValues,
  options: { requireAll: boolean; except?: string },
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
      if (options.except && field.startsWith(options.except)) continue;
      if (!present(values, field)) throw badRequest(`${field} is required for source ${source}.`);
    }
  }
}
