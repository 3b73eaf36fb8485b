import type { V1ResourceRequirements, V2HorizontalPodAutoscaler } from "@kubernetes/client-node";
import type { ResourceSpec } from "@/schemas/resource-spec";
import type { RenderContext } from "./context";
import { metadataOf } from "./names-and-labels";
import type { Component } from "./types";

export type ResourcePrefix = "" | "queue_" | "orchestrator_" | "executor_" | "redis_" | "db_";

// CPU is rendered in millicores ("500m") everywhere, memory in Mi and storage in Gi.
export const cpuQuantity = (cpu: number) => `${Math.round(cpu * 1000)}m`;
export const memoryQuantity = (mb: number) => `${mb}Mi`;
export const storageQuantity = (gi: number) => `${gi}Gi`;

export function field(spec: ResourceSpec, key: string): number | undefined {
  const value = (spec as Record<string, unknown>)[key];
  return typeof value === "number" ? value : undefined;
}

/** Requests and limits of one group; the spec has its default limits (2x) filled already. */
export function resourcesOf(
  spec: ResourceSpec,
  prefix: ResourcePrefix,
): V1ResourceRequirements | undefined {
  const pair = (cpuKey: string, memoryKey: string) => {
    const cpu = field(spec, cpuKey);
    const memory = field(spec, memoryKey);
    const out: Record<string, string> = {};
    if (cpu !== undefined) out.cpu = cpuQuantity(cpu);
    if (memory !== undefined) out.memory = memoryQuantity(memory);
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const requests = pair(`${prefix}cpu`, `${prefix}memory_mb`);
  const limits = pair(`${prefix}cpu_limit`, `${prefix}memory_limit_mb`);
  return requests || limits ? { requests, limits } : undefined;
}

export interface Scale {
  min: number;
  max: number;
}

/** min_scale defaults to 1 and max_scale to min_scale; 0 is kept (dev deployments may idle). */
export function scaleOf(spec: ResourceSpec, prefix: "" | "queue_" | "orchestrator_"): Scale {
  const min = field(spec, `${prefix}min_scale`) ?? 1;
  return { min, max: Math.max(field(spec, `${prefix}max_scale`) ?? min, min) };
}

/** HPA minReplicas must be >= 1 (scale-to-zero is a feature gate), so autoscale above max(min, 1). */
export function autoscales(scale: Scale): boolean {
  return scale.max > Math.max(scale.min, 1);
}

/** Scales the Deployment on CPU utilisation, which needs a CPU request to act on. */
export function autoscalerOf(
  ctx: RenderContext,
  component: Component,
  target: string,
  scale: Scale,
): V2HorizontalPodAutoscaler {
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: metadataOf(ctx.input, component, target),
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: target },
      minReplicas: Math.max(scale.min, 1),
      maxReplicas: scale.max,
      metrics: [
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
        },
      ],
    },
  };
}
