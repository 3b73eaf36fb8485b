import { withDefaultLimits, type ResourceSpec } from "@/schemas/resource-spec";
import { namespaceOf, objectName } from "./names-and-labels";
import type { RenderInput } from "./types";

/** What every renderer needs, computed once: the spec with its default limits, names, namespace. */
export interface RenderContext {
  input: RenderInput;
  spec: ResourceSpec;
  namespace: { name: string; owned: boolean };
  names: ReturnType<typeof namesOf>;
}

function namesOf(deployment: RenderInput["deployment"]) {
  return {
    server: objectName(deployment),
    secrets: objectName(deployment, "secrets"),
    queue: objectName(deployment, "queue"),
    orchestrator: objectName(deployment, "orchestrator"),
    executor: objectName(deployment, "executor"),
    redis: objectName(deployment, "redis"),
    database: objectName(deployment, "db"),
    databaseAuth: objectName(deployment, "db-auth"),
    tracing: objectName(deployment, "tracing"),
  };
}

export function contextOf(input: RenderInput): RenderContext {
  return {
    input,
    spec: withDefaultLimits(input.revision.sourceConfig.resource_spec ?? {}),
    namespace: namespaceOf(input),
    names: namesOf(input.deployment),
  };
}
