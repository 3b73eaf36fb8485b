export { renderManifests, toYaml } from "./render";
export { redactManifests } from "./secrets";
export type { KubernetesObject, RenderInput } from "./types";
