import type { DeploymentSource } from "@/schemas/deployments";

export const sourceLabels: Record<DeploymentSource, string> = {
  codehost: "Code host",
  external_container: "External container",
  internal_container: "Container",
  internal_source: "Source upload",
  internal_template: "Template",
};
