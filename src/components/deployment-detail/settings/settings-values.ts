import { z } from "zod";
import {
  sourceConfigInput,
  sourceRevisionConfigInput,
  type Deployment,
  type PatchDeploymentInput,
} from "@/schemas/deployments";
import {
  changesThatCutRevision,
  revisionConfigFields,
  sameJson,
  settingChanges,
} from "@/schemas/revision-rules";
import { fieldLabel } from "@/schemas/field-words";
import {
  PREVIEW_DEFAULTS,
  PREVIEWS_NEED_BUILD_ON_PUSH,
  type PreviewsConfigInput,
} from "@/schemas/previews";
import { sourceAllows, sourceRules } from "@/schemas/source-rules";

// The settings form: the API's own schemas, and the patch it sends (only what changed).

export const settingsSchema = z.object({
  source_config: sourceConfigInput.pick({
    build_on_push: true,
    custom_url: true,
    install_command: true,
    build_command: true,
    resource_spec: true,
    listener_config: true,
    template_id: true,
    previews: true,
  }),
  source_revision_config: sourceRevisionConfigInput,
});
export type SettingsValues = z.input<typeof settingsSchema>;

/**
 * The settings schema plus the source's required fields: one the deployment has cannot be
 * emptied (an empty image is caught here, before saving, not by the API's 400).
 */
export function settingsSchemaFor(d: Deployment) {
  const required = sourceRules[d.source].required.filter(
    (f) => f.startsWith("source_revision_config.") || f === "source_config.template_id",
  );
  return settingsSchema.superRefine((values, ctx) => {
    // The API's rule (contract 5.6), checked before saving: previews follow build_on_push.
    if (values.source_config.previews?.enabled && !values.source_config.build_on_push)
      ctx.addIssue({
        code: "custom",
        path: ["source_config", "previews", "enabled"],
        message: PREVIEWS_NEED_BUILD_ON_PUSH,
      });
    for (const field of required) {
      const [group, key] = field.split(".") as ["source_config" | "source_revision_config", string];
      if ((d[group] as Record<string, unknown>)[key] == null) continue;
      const value = (values[group] as Record<string, unknown> | undefined)?.[key];
      if (value == null || value === "")
        ctx.addIssue({
          code: "custom",
          path: [group, key],
          message: `${fieldLabel(field)} is required`,
        });
    }
  });
}

const editableConfig = [
  "build_on_push",
  "custom_url",
  "install_command",
  "build_command",
  "resource_spec",
  "listener_config",
  "template_id",
  "previews",
] as const;
type EditableConfigKey = (typeof editableConfig)[number];

/** Objects with no member set mean "not set". */
const orNull = <T>(value: T): T | null =>
  value && typeof value === "object" && Object.values(value).every((v) => v == null) ? null : value;

/** May this deployment's source hold a `source_config` member? */
export const configAllowed = (d: Deployment, key: EditableConfigKey) =>
  sourceAllows(d.source, `source_config.${key}`);
export const revisionAllowed = (d: Deployment, key: (typeof revisionConfigFields)[number]) =>
  sourceAllows(d.source, `source_revision_config.${key}`);

export function toFormValues(d: Deployment): SettingsValues {
  const c = d.source_config;
  return {
    source_config: {
      build_on_push: c.build_on_push ?? false,
      custom_url: c.custom_url,
      install_command: c.install_command,
      build_command: c.build_command,
      resource_spec: c.resource_spec ?? {},
      listener_config: c.listener_config ?? { k8s_namespace: null },
      template_id: c.template_id,
      previews: c.previews ?? { enabled: false, ...PREVIEW_DEFAULTS },
    },
    source_revision_config: Object.fromEntries(
      revisionConfigFields.map((key) => [key, d.source_revision_config[key]]),
    ),
  };
}

/** Previews never set and still off are "not set": the form shows them with their defaults. */
const previewsOf = (d: Deployment, value: unknown) => {
  const previews = value as PreviewsConfigInput | null | undefined;
  return previews && (previews.enabled || d.source_config.previews) ? previews : null;
};

/** The current and drafted values of what the form edits, normalized so equal means equal. */
function compared(d: Deployment, values: SettingsValues) {
  const normalize = (key: EditableConfigKey, value: unknown) =>
    key === "build_on_push" ? !!value : key === "previews" ? previewsOf(d, value) : orNull(value);
  const pick = (config: Record<EditableConfigKey, unknown>) =>
    Object.fromEntries(
      editableConfig
        .filter((key) => configAllowed(d, key))
        .map((key) => [key, normalize(key, config[key])]),
    ) as Partial<Deployment["source_config"]>;
  const revision = (config: Record<string, unknown>) =>
    Object.fromEntries(
      revisionConfigFields
        .filter((key) => revisionAllowed(d, key))
        .map((key) => [key, config[key] ?? null]),
    ) as Partial<Deployment["source_revision_config"]>;
  return {
    current: {
      source_config: pick(d.source_config),
      source_revision_config: revision(d.source_revision_config),
    },
    draft: {
      source_config: pick(values.source_config as Record<EditableConfigKey, unknown>),
      source_revision_config: revision(values.source_revision_config),
    },
  };
}

/** Which pending changes cut a new revision and which are plain settings. */
export function pendingChanges(d: Deployment, values: SettingsValues) {
  const { current, draft } = compared(d, values);
  const secrets = d.secrets;
  return {
    cuts: changesThatCutRevision({ ...current, secrets }, { ...draft, secrets }),
    settings: settingChanges(current.source_config, draft.source_config),
  };
}

/** The patch body holding only the members that changed. */
export function toPatch(d: Deployment, values: SettingsValues): PatchDeploymentInput {
  const { current, draft } = compared(d, values);
  const changed = <T extends object>(a: T, b: T) =>
    Object.fromEntries(
      Object.entries(b).filter(([key, v]) => !sameJson(a[key as keyof T], v)),
    ) as Partial<T>;
  const sourceConfig = changed(current.source_config, draft.source_config);
  const revisionConfig = changed(current.source_revision_config, draft.source_revision_config);
  return {
    ...(Object.keys(sourceConfig).length ? { source_config: sourceConfig } : {}),
    ...(Object.keys(revisionConfig).length ? { source_revision_config: revisionConfig } : {}),
  };
}
