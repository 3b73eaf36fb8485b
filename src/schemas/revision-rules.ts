import { withDefaultLimits, type ResourceSpec } from "./resource-spec";
import type { SourceConfig, SourceRevisionConfig } from "./deployments";

// Which changes cut a new revision (contract 5.4), in one place: the patch service decides with
// it and the dashboard shows it before saving, so the two cannot disagree.

/** The source_revision_config members a request can send (repo_commit_sha is the service's). */
export const revisionConfigFields = [
  "repo_ref",
  "graph_config_path",
  "image_uri",
  "source_tarball_path",
] as const satisfies (keyof SourceRevisionConfig)[];

/** source_config members whose change cuts a new revision. */
export const revisionSourceConfigFields = [
  "resource_spec",
  "install_command",
  "build_command",
] as const satisfies (keyof SourceConfig)[];

/** source_config members that are deployment settings: changing them cuts nothing. */
export const settingSourceConfigFields = [
  "build_on_push",
  "custom_url",
  "listener_config",
  "template_id",
  "previews",
] as const satisfies (keyof SourceConfig)[];

type RevisionConfigField = (typeof revisionConfigFields)[number];
type RevisionSourceConfigField = (typeof revisionSourceConfigFields)[number];
type SettingField = (typeof settingSourceConfigFields)[number];

/** What a revision is made of; `secrets` is whatever `sameSecrets` compares. */
export interface RevisionInputs<S> {
  source?: string;
  source_config: Partial<Pick<SourceConfig, RevisionSourceConfigField>>;
  source_revision_config: Partial<Pick<SourceRevisionConfig, RevisionConfigField>>;
  secrets: S[];
}

interface NamedValue {
  name: string;
  value: string;
}

/** Same names and values, in any order. */
export function sameNamedValues(a: NamedValue[], b: NamedValue[]): boolean {
  if (a.length !== b.length) return false;
  const values = new Map(a.map((s) => [s.name, s.value]));
  return b.every((s) => values.has(s.name) && values.get(s.name) === s.value);
}

/**
 * The fields (named as in a request, e.g. `source_config.resource_spec`) whose change from
 * `current` to `draft` cuts a new revision; empty when the draft cuts none.
 */
export function changesThatCutRevision<S = NamedValue>(
  current: RevisionInputs<S>,
  draft: RevisionInputs<S>,
  sameSecrets: (a: S[], b: S[]) => boolean = sameNamedValues as never,
): string[] {
  const changes: string[] = [];
  if (current.source !== draft.source) changes.push("revision_source");
  for (const key of revisionConfigFields) {
    if (
      (current.source_revision_config[key] ?? null) !== (draft.source_revision_config[key] ?? null)
    )
      changes.push(`source_revision_config.${key}`);
  }
  if (!sameSecrets(current.secrets, draft.secrets)) changes.push("secrets");
  for (const key of revisionSourceConfigFields) {
    const normalize = key === "resource_spec" ? normalizeSpec : (v: unknown) => v;
    if (!sameJson(normalize(current.source_config[key]), normalize(draft.source_config[key])))
      changes.push(`source_config.${key}`);
  }
  return changes;
}

/** The deployment settings (source_config members) that differ; they never cut a revision. */
export function settingChanges(
  current: Partial<Pick<SourceConfig, SettingField>>,
  draft: Partial<Pick<SourceConfig, SettingField>>,
): string[] {
  return settingSourceConfigFields
    .filter((key) => !sameJson(current[key], draft[key]))
    .map((key) => `source_config.${key}`);
}

/** Limits left unset are twice the request, so an unset limit equals its default. */
function normalizeSpec(spec: unknown): unknown {
  return spec ? withDefaultLimits(spec as ResourceSpec) : spec;
}

/** JSON values equal once null members are dropped (a stored `{cpu: null}` is `{}`). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(withoutNulls(value)) ?? "null";
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value ?? null;
}
