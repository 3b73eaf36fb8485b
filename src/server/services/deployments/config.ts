import type {
  SourceConfig,
  SourceConfigInput,
  SourceRevisionConfig,
  SourceRevisionConfigInput,
} from "@/schemas/deployments";
import {
  PREVIEWS_NEED_BUILD_ON_PUSH,
  withPreviewDefaults,
  type PreviewsConfigInput,
} from "@/schemas/previews";
import { resourceGroups, withDefaultLimits, type ResourceSpec } from "@/schemas/resource-spec";
import { badRequest, invalidField } from "@/server/errors";
import { emptySourceConfig, emptySourceRevisionConfig } from "./serialize";

/** Drops members the request left out (undefined), keeping explicit nulls. */
function defined<T extends object>(value: T | null | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

/** `current` with the request's members laid over it; resource_spec is replaced whole. */
export function mergeSourceConfig(
  current: SourceConfig,
  input: SourceConfigInput | null | undefined,
): SourceConfig {
  const merged = { ...emptySourceConfig, ...current, ...defined(input) } as SourceConfig;
  merged.deployment_type ??= "dev";
  if (merged.resource_spec) merged.resource_spec = withDefaultLimits(merged.resource_spec);
  if (merged.previews)
    merged.previews = withPreviewDefaults(merged.previews as PreviewsConfigInput);
  return merged;
}

export function mergeSourceRevisionConfig(
  current: SourceRevisionConfig,
  input: SourceRevisionConfigInput | null | undefined,
): SourceRevisionConfig {
  return { ...emptySourceRevisionConfig, ...current, ...defined(input) };
}

/** min_scale 0 (scale to zero) is for development deployments only. */
export function checkScales(
  spec: ResourceSpec | null,
  deploymentType: SourceConfig["deployment_type"],
): void {
  if (!spec || deploymentType !== "prod") return;
  for (const { prefix, scaled } of resourceGroups) {
    const key = `${prefix}min_scale` as keyof ResourceSpec;
    if (scaled && spec[key] === 0) {
      throw invalidField(
        ["body", "source_config", "resource_spec", key],
        `${key} 0 (scale to zero) is only allowed for dev and dev_free deployments`,
      );
    }
  }
}

/** build_on_push follows a branch: a tag never moves, so the two do not go together. */
export function checkBuildOnPush(config: SourceConfig, revision: SourceRevisionConfig): void {
  if (config.build_on_push && revision.repo_ref?.startsWith("refs/tags/")) {
    throw badRequest(
      "build_on_push cannot be enabled for a tag ref (refs/tags/...): use a branch.",
    );
  }
  if (config.previews?.enabled && !config.build_on_push) {
    throw invalidField(
      ["body", "source_config", "previews", "enabled"],
      PREVIEWS_NEED_BUILD_ON_PUSH,
      "previews_need_build_on_push",
    );
  }
}
