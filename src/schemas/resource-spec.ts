import { z } from "zod";
import { resourceGroups } from "./resource-groups";

// ResourceSpec (spec 2.6) with the contract's rules (5.2). Used by the API and the dashboard forms.

const freeForm = z.record(z.string(), z.unknown());
// Kubernetes label syntax: an optional DNS-subdomain prefix and a name of at most 63 characters.
const LABEL_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;
const LABEL_PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const isLabelKey = (key: string) => {
  const [prefix, name] = key.includes("/") ? key.split(/\/(.*)/s) : [undefined, key];
  return (
    LABEL_NAME.test(name ?? "") &&
    (prefix === undefined || (prefix.length <= 253 && LABEL_PREFIX.test(prefix)))
  );
};
const labelKey = z
  .string()
  .refine(
    isLabelKey,
    "Keys are Kubernetes label keys: [prefix/]name, name at most 63 characters of letters, digits, '-', '_' and '.'",
  );
const labels = z.record(
  labelKey,
  z
    .string()
    .refine(
      (v) => v === "" || LABEL_NAME.test(v),
      "Label values are at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
    ),
);
const annotations = z.record(labelKey, z.string());

/** Names of the containers Hangar itself runs in each pod (see src/server/jobs/manifests). */
export const RESERVED_CONTAINER_NAMES = ["server", "queue", "orchestrator", "executor"];

export const volumeMount = z
  .object({
    name: z.string().min(1),
    mountPath: z.string().min(1),
    subPath: z.string().nullish(),
    mountPropagation: z.string().nullish(),
    subPathExpr: z.string().nullish(),
    readOnly: z.boolean().nullish(),
  })
  .meta({ id: "VolumeMount" });

export const volume = z
  .object({
    name: z.string().min(1),
    configMap: freeForm.nullish(),
    secret: freeForm.nullish(),
    emptyDir: freeForm.nullish(),
    persistentVolumeClaim: freeForm.nullish(),
    nfs: freeForm.nullish(),
    projected: freeForm.nullish(),
    downwardAPI: freeForm.nullish(),
    csi: freeForm.nullish(),
  })
  .meta({ id: "Volume" });

export const container = z
  .object({
    name: z.string().min(1),
    image: z.string().min(1),
    imagePullPolicy: z.string().nullish(),
    workingDir: z.string().nullish(),
    restartPolicy: z.string().nullish(),
    command: z.array(z.string()).nullish(),
    args: z.array(z.string()).nullish(),
    env: z
      .array(
        z.object({
          name: z.string().min(1),
          value: z.string().nullish(),
          valueFrom: freeForm.nullish(),
        }),
      )
      .nullish(),
    envFrom: z.array(freeForm).nullish(),
    resources: z.object({ limits: freeForm.nullish(), requests: freeForm.nullish() }).nullish(),
    volumeMounts: z.array(volumeMount).nullish(),
    securityContext: freeForm.nullish(),
  })
  .meta({ id: "Container" });

const cpu = (max: number) =>
  z
    .number()
    .min(0.1)
    .max(max)
    .refine(
      (v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9,
      "CPU has at most one decimal place",
    )
    .nullish();
const memoryMb = z.number().int().min(128).nullish();
const scale = z.number().int().min(0).max(100).nullish();

export { resourceGroups };

const resourceSpecObject = z.object({
  min_scale: scale,
  max_scale: scale,
  cpu: cpu(8),
  cpu_limit: cpu(16),
  memory_mb: memoryMb,
  memory_limit_mb: memoryMb,
  queue_min_scale: scale,
  queue_max_scale: scale,
  queue_cpu: cpu(8),
  queue_cpu_limit: cpu(16),
  queue_memory_mb: memoryMb,
  queue_memory_limit_mb: memoryMb,
  orchestrator_cpu: cpu(8),
  orchestrator_cpu_limit: cpu(16),
  orchestrator_memory_mb: memoryMb,
  orchestrator_memory_limit_mb: memoryMb,
  orchestrator_min_scale: scale,
  orchestrator_max_scale: scale,
  executor_cpu: cpu(8),
  executor_cpu_limit: cpu(16),
  executor_memory_mb: memoryMb,
  executor_memory_limit_mb: memoryMb,
  redis_cpu: cpu(8),
  redis_cpu_limit: cpu(16),
  redis_memory_mb: memoryMb,
  redis_memory_limit_mb: memoryMb,
  db_cpu: cpu(8),
  db_cpu_limit: cpu(16),
  db_memory_mb: memoryMb,
  db_memory_limit_mb: memoryMb,
  db_storage_gi: z.number().int().min(1).max(1000).nullish(),
  db_max_connections: z.number().int().min(1).max(10000).nullish(),
  labels: labels.nullish(),
  annotations: annotations.nullish(),
  service_account_name: z.string().nullish(),
  image_pull_secrets: z.array(z.object({ name: z.string().min(1) })).nullish(),
  volumes: z.array(volume).nullish(),
  volume_mounts: z.array(volumeMount).nullish(),
  init_containers: z.array(container).nullish(),
  sidecars: z.array(container).nullish(),
});

export type ResourceSpecInput = z.infer<typeof resourceSpecObject>;
type NumericKey = {
  [K in keyof ResourceSpecInput]-?: NonNullable<ResourceSpecInput[K]> extends number ? K : never;
}[keyof ResourceSpecInput];

function num(spec: ResourceSpecInput, key: string): number | null | undefined {
  return spec[key as NumericKey];
}

function duplicates(names: string[]): string[] {
  return names.filter((n, i) => names.indexOf(n) !== i);
}

/** Cross-field rules: limit >= request, max_scale >= min_scale, unique names, mounts name volumes. */
export const resourceSpec = resourceSpecObject
  .superRefine((spec, ctx) => {
    for (const { prefix, scaled } of resourceGroups) {
      for (const [request, limit] of [
        [`${prefix}cpu`, `${prefix}cpu_limit`],
        [`${prefix}memory_mb`, `${prefix}memory_limit_mb`],
      ] as const) {
        const r = num(spec, request);
        const l = num(spec, limit);
        if (r != null && l != null && l < r) {
          ctx.addIssue({
            code: "custom",
            path: [limit],
            message: `${limit} must be at least ${request} (${r})`,
          });
        }
      }
      if (scaled) {
        const min = num(spec, `${prefix}min_scale`);
        const max = num(spec, `${prefix}max_scale`);
        if (min != null && max != null && max < min) {
          ctx.addIssue({
            code: "custom",
            path: [`${prefix}max_scale`],
            message: `${prefix}max_scale must be at least ${prefix}min_scale (${min})`,
          });
        }
      }
    }
    const containers = [...(spec.init_containers ?? []), ...(spec.sidecars ?? [])];
    for (const name of containers
      .map((c) => c.name)
      .filter((n) => RESERVED_CONTAINER_NAMES.includes(n))) {
      ctx.addIssue({
        code: "custom",
        path: ["sidecars"],
        message: `Container name "${name}" is reserved for Hangar's own containers (${RESERVED_CONTAINER_NAMES.join(", ")})`,
      });
    }
    for (const name of new Set(duplicates(containers.map((c) => c.name)))) {
      ctx.addIssue({
        code: "custom",
        path: ["sidecars"],
        message: `Container name "${name}" is used more than once`,
      });
    }
    const volumeNames = (spec.volumes ?? []).map((v) => v.name);
    for (const name of new Set(duplicates(volumeNames))) {
      ctx.addIssue({
        code: "custom",
        path: ["volumes"],
        message: `Volume name "${name}" is used more than once`,
      });
    }
    for (const name of new Set(duplicates((spec.image_pull_secrets ?? []).map((s) => s.name)))) {
      ctx.addIssue({
        code: "custom",
        path: ["image_pull_secrets"],
        message: `Pull secret "${name}" is listed more than once`,
      });
    }
    const mounts: { path: (string | number)[]; name: string }[] = [
      ...(spec.volume_mounts ?? []).map((m, i) => ({
        path: ["volume_mounts", i, "name"],
        name: m.name,
      })),
      ...(["init_containers", "sidecars"] as const).flatMap((group) =>
        (spec[group] ?? []).flatMap((c, ci) =>
          (c.volumeMounts ?? []).map((m, mi) => ({
            path: [group, ci, "volumeMounts", mi, "name"],
            name: m.name,
          })),
        ),
      ),
    ];
    for (const mount of mounts) {
      if (!volumeNames.includes(mount.name)) {
        ctx.addIssue({
          code: "custom",
          path: mount.path,
          message: `Volume mount "${mount.name}" names no volume`,
        });
      }
    }
  })
  .meta({ id: "ResourceSpec" });

export type ResourceSpec = z.infer<typeof resourceSpec>;

/** Fills unset limits with twice their request, as the contract says. */
export function withDefaultLimits(spec: ResourceSpec): ResourceSpec {
  const out: Record<string, unknown> = { ...spec };
  for (const { prefix } of resourceGroups) {
    for (const [request, limit, cap] of [
      [`${prefix}cpu`, `${prefix}cpu_limit`, 16],
      [`${prefix}memory_mb`, `${prefix}memory_limit_mb`, Infinity],
    ] as const) {
      const r = num(spec, request);
      if (r != null && num(spec, limit) == null)
        out[limit] = Math.min(Math.round(r * 2 * 10) / 10, cap);
    }
  }
  return out as ResourceSpec;
}
