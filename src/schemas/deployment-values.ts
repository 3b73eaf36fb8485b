// The deployments' enumerations (and their revisions' and logs') as plain values, without zod: the
// dashboard's client code imports these (labels, filters) so the browser does not download the
// schema library for a list or a tab.

export const deploymentSources = [
  "codehost",
  "external_container",
  "internal_container",
  "internal_source",
  "internal_template",
] as const;

export const deploymentTypes = ["dev_free", "dev", "prod"] as const;

export const deploymentStatuses = [
  "AWAITING_DATABASE",
  "READY",
  "UNUSED",
  "AWAITING_DELETE",
  "UNKNOWN",
] as const;

export const revisionStatuses = [
  "CREATING",
  "QUEUED",
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "DEPLOYED",
  "SKIPPED",
  "INTERRUPTED",
  "UNKNOWN",
] as const;

export const logLevels = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] as const;
