import { z } from "zod";
import type { Repository } from "@/schemas/codehost-integrations";
import {
  deploymentName,
  deploymentType,
  secretsInput,
  type CreateDeploymentInput,
} from "@/schemas/deployments";
import { PREVIEW_DEFAULTS, PREVIEWS_NEED_BUILD_ON_PUSH } from "@/schemas/previews";
import { resourceSpec } from "@/schemas/resource-spec";

// The wizard's data: what each step collects, its defaults, and the create body it becomes.

export const steps = [
  { id: "integration", label: "Integration" },
  { id: "repository", label: "Repository" },
  { id: "configure", label: "Configure" },
  { id: "review", label: "Review" },
] as const;
export type StepId = (typeof steps)[number]["id"];
export const stepIndex = (id: StepId) => steps.findIndex((s) => s.id === id);

/** The configure form, built from the API's own schemas plus the create rules that span fields. */
export const configureSchema = z
  .object({
    name: deploymentName,
    repo_ref: z.string().trim().min(1, "Enter a branch, tag or commit"),
    graph_config_path: z.string().trim().min(1, "Enter the path of the graph config file"),
    deployment_type: deploymentType,
    build_on_push: z.boolean(),
    /** Pull request previews with their defaults (contract 5.6); tuned later in Settings. */
    previews: z.boolean(),
    secrets: secretsInput,
    resource_spec: resourceSpec,
  })
  .superRefine((v, ctx) => {
    if (v.deployment_type === "prod" && v.resource_spec.min_scale === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["resource_spec", "min_scale"],
        message: "Production deployments keep at least one replica: min scale is at least 1",
      });
    }
    if (v.build_on_push && v.repo_ref.startsWith("refs/tags/")) {
      ctx.addIssue({
        code: "custom",
        path: ["build_on_push"],
        message: "A tag never moves: build on push needs a branch",
      });
    }
    if (v.previews && !v.build_on_push) {
      ctx.addIssue({ code: "custom", path: ["previews"], message: PREVIEWS_NEED_BUILD_ON_PUSH });
    }
  });
export type ConfigureValues = z.infer<typeof configureSchema>;

/** A repository name as a DNS label: lowercase, '-' for anything else, at most 63 characters. */
export function dnsLabel(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return label || "agent";
}

export function configureDefaults(repo: Repository): ConfigureValues {
  return {
    name: dnsLabel(repo.name),
    repo_ref: repo.default_branch,
    graph_config_path: "langgraph.json",
    deployment_type: "dev",
    build_on_push: true,
    previews: false,
    secrets: [],
    resource_spec: { cpu: 1, memory_mb: 1024, min_scale: 1, max_scale: 1 },
  };
}

export function createBody(repo: Repository, config: ConfigureValues): CreateDeploymentInput {
  return {
    name: config.name,
    source: "codehost",
    source_config: {
      integration_id: repo.host_integration_id,
      repo_url: repo.url,
      build_on_push: config.build_on_push,
      ...(config.previews ? { previews: { enabled: true } } : {}),
      deployment_type: config.deployment_type,
      resource_spec: config.resource_spec,
    },
    source_revision_config: {
      repo_ref: config.repo_ref,
      graph_config_path: config.graph_config_path,
    },
    secrets: config.secrets,
  };
}

/** Where a create error belongs: API paths to configure-form fields. */
export function configureFieldFor(path: string): keyof ConfigureValues | string | null {
  if (path === "name") return "name";
  const revision = /^source_revision_config\.(repo_ref|graph_config_path)$/.exec(path);
  if (revision) return revision[1]!;
  const config = /^source_config\.(build_on_push|deployment_type|resource_spec(\..+)?)$/.exec(path);
  if (config) return config[1]!;
  if (path.startsWith("source_config.previews")) return "previews";
  if (path.startsWith("secrets")) return path;
  return null;
}

export { deploymentTypeLabels } from "@/components/deployment-form/name-and-type-fields";

/** What turning previews on in the wizard sets: the API's defaults. */
export const previewDefaultsText = `at most ${PREVIEW_DEFAULTS.max_open} open, deleted after ${PREVIEW_DEFAULTS.ttl_hours} h without a push, no secrets`;
