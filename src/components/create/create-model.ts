import { z } from "zod";
import {
  deploymentName,
  deploymentType,
  type CreateDeploymentInput,
  type DeploymentSource,
} from "@/schemas/deployments";
import { resourceSpec } from "@/schemas/resource-spec";

// The create forms (image, template, upload): what each collects and the create body it sends.

export const createKinds = ["image", "template", "upload"] as const;
export type CreateKind = (typeof createKinds)[number];

export const isCreateKind = (value: string): value is CreateKind =>
  (createKinds as readonly string[]).includes(value);

/** The sources each kind creates in each mode; self-hosted runs external images only. */
export function sourceOf(kind: CreateKind, mode: "managed" | "self_hosted"): DeploymentSource {
  if (kind === "image") return mode === "managed" ? "internal_container" : "external_container";
  return kind === "template" ? "internal_template" : "internal_source";
}

export const kindsIn = (mode: "managed" | "self_hosted"): CreateKind[] =>
  mode === "managed" ? [...createKinds] : ["image"];

/** The form, built from the API's schemas plus what each kind needs before it can be sent. */
export const createSchema = z
  .object({
    kind: z.enum(createKinds),
    name: deploymentName,
    deployment_type: deploymentType,
    image_uri: z.string().trim().max(1024),
    template_id: z.string(),
    graph_config_path: z.string().trim().max(1024),
    resource_spec: resourceSpec,
  })
  .superRefine((v, ctx) => {
    const need = (path: "image_uri" | "template_id" | "graph_config_path", message: string) => {
      if (!v[path]) ctx.addIssue({ code: "custom", path: [path], message });
    };
    if (v.kind === "image")
      need("image_uri", "Enter the image to run, e.g. ghcr.io/acme/agent:1.0");
    if (v.kind === "template") need("template_id", "Choose a template");
    if (v.kind === "upload")
      need("graph_config_path", "Enter the path of the graph config file in the archive");
    if (v.deployment_type === "prod" && v.resource_spec.min_scale === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["resource_spec", "min_scale"],
        message: "Production deployments keep at least one replica: minimum replicas is at least 1",
      });
    }
  });
export type CreateValues = z.infer<typeof createSchema>;

export function createDefaults(kind: CreateKind): CreateValues {
  return {
    kind,
    name: "",
    deployment_type: "dev",
    image_uri: "",
    template_id: "",
    graph_config_path: "langgraph.json",
    resource_spec: { cpu: 1, memory_mb: 1024, min_scale: 1, max_scale: 1 },
  };
}

/**
 * The create body. An upload creates the deployment with no revision: the first is cut by the
 * patch that names the uploaded archive, as the deploy client does.
 */
export function createBody(values: CreateValues, source: DeploymentSource): CreateDeploymentInput {
  const sourceConfig = {
    deployment_type: values.deployment_type,
    resource_spec: values.resource_spec,
  };
  switch (values.kind) {
    case "image":
      return {
        name: values.name,
        source,
        source_config: sourceConfig,
        source_revision_config: { image_uri: values.image_uri },
      };
    case "template":
      return {
        name: values.name,
        source,
        source_config: { ...sourceConfig, template_id: values.template_id },
        source_revision_config: {},
      };
    case "upload":
      return { name: values.name, source, source_config: sourceConfig, source_revision_config: {} };
  }
}

/** Where a create error belongs: API paths to this form's fields. */
export function createFieldFor(path: string): string | null {
  if (path === "name") return "name";
  const match =
    /^source_revision_config\.(image_uri|graph_config_path)$/.exec(path) ??
    /^source_config\.(template_id|deployment_type|resource_spec(\..+)?)$/.exec(path);
  return match ? match[1]! : null;
}
