import type {
  DeploymentSource,
  PatchDeploymentInput,
  SourceConfig,
  SourceRevisionConfig,
} from "@/schemas/deployments";
import { AppError, badRequest } from "@/server/errors";
import { revisionConfigFields } from "@/schemas/revision-rules";
import { sourceRules } from "@/schemas/source-rules";
import { checkSourceFields } from "./source-rules";

// The rules a patch must pass that a create does not (contract 5.4).

const immutableConfigFields = [
  "integration_id",
  "repo_url",
  "deployment_type",
  "listener_id",
] as const satisfies (keyof SourceConfig)[];

/** If-Match holds one or more ETags (or `*`); weak and strong forms of ours compare equal. */
export function checkIfMatch(ifMatch: string | null | undefined, etag: string): void {
  if (ifMatch == null || ifMatch.trim() === "*") return;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  if (!ifMatch.split(",").some((tag) => bare(tag) === bare(etag))) {
    throw new AppError(
      "precondition_failed",
      "The deployment changed since it was read (If-Match does not match its ETag): read it again and retry.",
    );
  }
}

/** Sending an immutable field is fine as long as its value is the stored one. */
export function checkImmutable(
  current: { name: string; source: DeploymentSource; config: SourceConfig },
  input: PatchDeploymentInput,
): void {
  if (input.name != null && input.name !== current.name) {
    throw badRequest(`name is immutable: this deployment is named ${current.name}.`);
  }
  if (input.source != null && input.source !== current.source) {
    throw badRequest(`source is immutable: this deployment's source is ${current.source}.`);
  }
  for (const field of immutableConfigFields) {
    const sent = input.source_config?.[field];
    if (sent !== undefined && sent !== current.config[field]) {
      throw badRequest(`source_config.${field} is immutable and cannot be changed.`);
    }
  }
}

/**
 * The deployment's own settings must suit its source; the revision's config must suit the
 * revision's source, which `revision_source` may override for that revision only.
 */
export function checkPatchedFields(
  deploymentSource: DeploymentSource,
  revisionSource: DeploymentSource,
  values: {
    sourceConfig: SourceConfig;
    sourceRevisionConfig: SourceRevisionConfig;
    secretReferences: unknown[] | null | undefined;
  },
  /** False while a deployment awaits its first artifact and the patch cuts no revision. */
  revisionRequired = true,
): void {
  const { sourceConfig, sourceRevisionConfig, secretReferences } = values;
  const revisionValues = Object.fromEntries(
    revisionConfigFields.map((key) => [key, sourceRevisionConfig[key]]),
  );
  if (revisionSource === deploymentSource) {
    checkSourceFields(
      deploymentSource,
      {
        source_config: sourceConfig,
        source_revision_config: revisionValues,
        secret_references: secretReferences,
      },
      { requireAll: true, except: revisionRequired ? undefined : "source_revision_config." },
    );
    return;
  }
  checkSourceFields(
    deploymentSource,
    { source_config: sourceConfig, secret_references: secretReferences },
    { requireAll: false },
  );
  // e.g. revision_source codehost needs the deployment's integration_id and repo_url.
  const neededConfig = Object.fromEntries(
    sourceRules[revisionSource].required
      .filter((field) => field.startsWith("source_config."))
      .map((field) => {
        const key = field.slice("source_config.".length) as keyof SourceConfig;
        return [key, sourceConfig[key]];
      }),
  );
  checkSourceFields(
    revisionSource,
    { source_config: neededConfig, source_revision_config: revisionValues },
    { requireAll: true },
  );
}
