import type { KubernetesObject } from "./types";

/** `Kind namespace/name`: how logs and messages name an object, never with its contents. */
export const describeObject = (o: KubernetesObject) =>
  `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata?.name}`;
