import type { V1Service } from "@kubernetes/client-node";
import type { RenderContext } from "./context";
import { metadataOf, selectorLabels } from "./names-and-labels";
import type { Component } from "./types";

/** A ClusterIP Service in front of one component; headless for a StatefulSet's stable pod DNS. */
export function serviceOf(
  ctx: RenderContext,
  component: Component,
  name: string,
  port: { name: string; port: number },
  { headless = false } = {},
): V1Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: metadataOf(ctx.input, component, name),
    spec: {
      type: "ClusterIP",
      clusterIP: headless ? "None" : undefined,
      selector: selectorLabels(ctx.input, component),
      ports: [{ name: port.name, port: port.port, targetPort: port.port, protocol: "TCP" }],
    },
  };
}
