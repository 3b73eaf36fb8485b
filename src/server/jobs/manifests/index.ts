// A revision's Kubernetes objects: namespace, secrets, Postgres, Redis, server, queue workers,
// and the orchestrator and executor when the resource spec sizes them. See render.ts.
export { renderManifests, toYaml } from "./render";
export { redactManifests } from "./secrets";
export type { KubernetesObject, RenderInput, TracingInput } from "./types";
