import type { ResourceSpec } from "@/schemas/resource-spec";
import type { RenderContext } from "./context";
import { scaleOf } from "./resources";
import type { KubernetesObject } from "./types";
import { appWorkload } from "./workload";

const anySet = (spec: ResourceSpec, prefix: string) =>
  Object.entries(spec).some(([key, value]) => key.startsWith(prefix) && value != null);

/**
 * Background processes of the same image, told apart by HANGAR_PROCESS (no command override:
 * external images own their entrypoint). Queue workers always run (queue_min_scale, default 1,
 * 0 allowed for dev types); the orchestrator and the executor only when the spec sizes them.
 */
export function workerObjects(ctx: RenderContext): KubernetesObject[] {
  const { spec, names } = ctx;
  const objects = appWorkload(ctx, {
    component: "queue",
    name: names.queue,
    prefix: "queue_",
    scale: scaleOf(spec, "queue_"),
  });
  if (anySet(spec, "orchestrator_"))
    objects.push(
      ...appWorkload(ctx, {
        component: "orchestrator",
        name: names.orchestrator,
        prefix: "orchestrator_",
        scale: scaleOf(spec, "orchestrator_"),
      }),
    );
  // The spec gives the executor resources but no scale: one replica.
  if (anySet(spec, "executor_"))
    objects.push(
      ...appWorkload(ctx, {
        component: "executor",
        name: names.executor,
        prefix: "executor_",
        scale: { min: 1, max: 1 },
      }),
    );
  return objects;
}
