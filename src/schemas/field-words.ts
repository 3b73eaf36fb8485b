import type { z } from "zod";
import { resourceGroups } from "./resource-groups";

// The dashboard's words for the API's fields: labels, units, and validation messages that name
// fields by label instead of by path. The REST error bodies keep the contract's wording; only
// the dashboard (its forms and its tRPC errors) speaks these.

export const groupLabels: Record<string, string> = {
  "": "Server",
  queue_: "Queue workers",
  orchestrator_: "Orchestrator",
  executor_: "Executor",
  redis_: "Redis",
  db_: "Database",
};

/** A resource_spec number's name without its group prefix, its label and its unit. */
const resourceFields: Record<string, { label: string; unit?: "cores" | "MB" | "GiB" }> = {
  cpu: { label: "CPU", unit: "cores" },
  cpu_limit: { label: "CPU limit", unit: "cores" },
  memory_mb: { label: "Memory", unit: "MB" },
  memory_limit_mb: { label: "Memory limit", unit: "MB" },
  min_scale: { label: "Minimum replicas" },
  max_scale: { label: "Maximum replicas" },
  storage_gi: { label: "Storage", unit: "GiB" },
  max_connections: { label: "Max connections" },
};

const resourceOthers: Record<string, string> = {
  labels: "Labels",
  annotations: "Annotations",
  service_account_name: "Service account",
  image_pull_secrets: "Image pull secrets",
  volumes: "Volumes",
  volume_mounts: "Volume mounts",
  init_containers: "Init containers",
  sidecars: "Sidecars",
};

const configLabels: Record<string, string> = {
  name: "Name",
  source: "Source",
  revision_source: "Revision source",
  integration_id: "Integration",
  repo_url: "Repository",
  build_on_push: "Build on push",
  previews: "Preview deployments",
  custom_url: "Custom URL",
  listener_id: "Listener",
  listener_config: "Listener settings",
  k8s_namespace: "Listener namespace",
  install_command: "Install command",
  build_command: "Build command",
  deployment_type: "Deployment type",
  template_id: "Template",
  repo_ref: "Branch or ref",
  graph_config_path: "Graph config path",
  langgraph_config_path: "Graph config path",
  image_uri: "Image",
  source_tarball_path: "Source archive",
  secrets: "Secrets",
  secret_references: "Secret references",
  tag_value_ids: "Tags",
  image_version: "Image version",
  provider_id: "Provider ID",
};

/** source_config.previews members (contract 5.6). */
const previewLabels: Record<string, string> = {
  enabled: "Preview deployments",
  max_open: "Maximum open previews",
  ttl_hours: "Lifetime without a push (hours)",
  secrets: "Secrets for previews",
};

/** Splits a resource_spec key into its group prefix and field ("queue_cpu" -> queue_, cpu). */
function resourceKey(key: string): { prefix: string; field: string } | null {
  for (const { prefix } of [...resourceGroups].reverse()) {
    if (prefix && key.startsWith(prefix) && resourceFields[key.slice(prefix.length)])
      return { prefix, field: key.slice(prefix.length) };
  }
  return resourceFields[key] ? { prefix: "", field: key } : null;
}

/** The label of a resource_spec number ("queue_max_scale" -> "Queue workers maximum replicas"). */
export function resourceLabel(key: string): string {
  const parsed = resourceKey(key);
  if (!parsed) return resourceOthers[key] ?? key;
  const label = resourceFields[parsed.field]!.label;
  // "Queue workers CPU", "Queue workers maximum replicas": acronyms keep their capitals.
  const inGroup = /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
  return parsed.prefix ? `${groupLabels[parsed.prefix]} ${inGroup}` : label;
}

/** A resource value with its unit ("0.5 cores", "1 core", "512 MB"). */
export function withUnit(key: string, value: number): string {
  const unit = resourceFields[resourceKey(key)?.field ?? ""]?.unit;
  const n = value.toLocaleString("en-US");
  if (unit === "cores") return `${n} ${value === 1 ? "core" : "cores"}`;
  return unit ? `${n} ${unit}` : n;
}

/**
 * The label of a field named by its API path: "source_config.resource_spec.max_scale",
 * "source_revision_config.image_uri", "secrets.0.name".
 */
export function fieldLabel(path: string | (string | number)[]): string {
  const parts = (typeof path === "string" ? path.split(".") : path.map(String)).filter(
    (p) => p !== "body" && p !== "patch",
  );
  const spec = parts.indexOf("resource_spec");
  if (spec >= 0 && parts[spec + 1]) return resourceLabel(parts[spec + 1]!);
  if (spec >= 0) return "Resources";
  const previews = parts.indexOf("previews");
  if (previews >= 0) return previewLabels[parts[previews + 1] ?? ""] ?? "Preview deployments";
  if (parts[0] === "secrets" || parts[0] === "secret_references") {
    const what = parts[0] === "secrets" ? "Secret" : "Secret reference";
    return parts[2] === "value" ? `${what} value` : parts[2] ? `${what} name` : `${what}s`;
  }
  const last = [...parts].reverse().find((p) => !/^\d+$/.test(p));
  return (last && configLabels[last]) ?? last ?? "This field";
}

/** A bound on a field in its unit: "at least 0.1 cores", "at most 100". */
function bound(path: (string | number)[], value: unknown): string {
  const key = String(path[path.length - 1] ?? "");
  return typeof value === "number" ? withUnit(key, value) : String(value);
}

/** zod's own texts ("Too small: expected number to be >=0.1"), as opposed to a schema's. */
export const isZodDefaultMessage = (message: string) => /^(Too (small|big)|Invalid )/.test(message);

/**
 * One zod issue in the dashboard's words, naming the field by its label. A schema's own message
 * is kept (rephrased when it names fields by path); zod's defaults are replaced.
 */
export function issueWords(
  issue: z.core.$ZodIssue,
  isDefault = isZodDefaultMessage(issue.message),
): string {
  if (!isDefault) return messageWords(issue.message);
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  const label = fieldLabel(path);
  switch (issue.code) {
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1
          ? `${label} is required`
          : `${label} needs at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `${label} needs at least ${issue.minimum} entries`;
      return `${label} must be at least ${bound(path, issue.minimum)}`;
    case "too_big":
      if (issue.origin === "string") return `${label} is at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `${label} holds at most ${issue.maximum} entries`;
      return `${label} must be at most ${bound(path, issue.maximum)}`;
    case "invalid_type":
      if (issue.expected === "int") return `${label} must be a whole number`;
      if (issue.input === undefined || issue.input === null || issue.input === "")
        return `${label} is required`;
      if (issue.expected === "number") return `${label} must be a number`;
      return `${label} is not valid`;
    case "invalid_format":
      if (issue.format === "url") return `${label} must be a URL, e.g. https://agent.example.com`;
      return messageWords(issue.message);
    case "invalid_value":
      return `${label} must be one of the listed choices`;
    default:
      return messageWords(issue.message);
  }
}

const RESOURCE_KEY = "(?:[a-z]+_)?(?:cpu_limit|cpu|memory_limit_mb|memory_mb|min_scale|max_scale)";

/** Rules the API states in its own words, rephrased with labels (the service's exact texts). */
const rephrasings: [RegExp, (...m: string[]) => string][] = [
  [
    new RegExp(`^(${RESOURCE_KEY}) must be at least (${RESOURCE_KEY}) \\(([\\d.]+)\\)$`),
    (_, field, other, value) => {
      const least = field!.endsWith("max_scale") ? "the minimum" : "the request";
      return `${resourceLabel(field!)} must be at least ${least} (${withUnit(other!, Number(value))})`;
    },
  ],
  [
    /^(\w*min_scale) 0 \(scale to zero\) is only allowed for dev and dev_free deployments$/,
    (_, field) =>
      `${resourceLabel(field!)} can be 0 (scale to zero) only for development deployments: production keeps at least 1`,
  ],
  [
    /^([a-z_.]+) is required for source (\w+)\.$/,
    (_, field, source) => `${fieldLabel(field!)} is required for ${sourceWords[source!] ?? source}`,
  ],
  [
    /^([a-z_.]+) is not allowed for source (\w+)\.$/,
    (_, field, source) =>
      `${fieldLabel(field!)} cannot be set for ${sourceWords[source!] ?? source}`,
  ],
  [/^repo_url is at most 2048 bytes$/, () => "Repository URL is at most 2048 bytes"],
  [/^provider_id (starts with .*)$/, (_, rule) => `Provider ID ${rule}`],
  [
    /^(max_open|ttl_hours) (is|must) (.*)$/,
    (_, field, verb, rest) => `${previewLabels[field!]} ${verb} ${rest}`,
  ],
  [
    /^Previews need build_on_push/,
    () => "Previews need Build on push: turn it on to build pull requests, or turn previews off",
  ],
  [
    /^build_on_push cannot be enabled for a tag ref/,
    () => "Build on push needs a branch: a tag never moves",
  ],
];

const sourceWords: Record<string, string> = {
  codehost: "a code-host deployment",
  external_container: "a container image deployment",
  internal_container: "a container image deployment",
  internal_source: "an uploaded source deployment",
  internal_template: "a template deployment",
};

/** A message from the API, with field paths and rules said in words; others pass unchanged. */
export function messageWords(message: string): string {
  for (const [pattern, words] of rephrasings) {
    const match = pattern.exec(message);
    if (match) return words(...match);
  }
  return message;
}
