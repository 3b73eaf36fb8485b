import type { V1Ingress } from "@kubernetes/client-node";
import { ingressHost } from "@/schemas/web-url";
import type { RenderContext } from "./context";
import { metadataOf } from "./names-and-labels";
import { scaleOf } from "./resources";
import { serviceOf } from "./service";
import type { KubernetesObject } from "./types";
import { appWorkload, SERVER_PORT } from "./workload";

/** The API server: `<name>` Deployment (min_scale replicas, HPA up to max_scale) and Service. */
export function serverObjects(ctx: RenderContext): KubernetesObject[] {
  const name = ctx.names.server;
  return [
    ...appWorkload(ctx, {
      component: "server",
      name,
      prefix: "",
      scale: scaleOf(ctx.spec, ""),
      port: SERVER_PORT,
    }),
    serviceOf(ctx, "server", name, { name: "http", port: SERVER_PORT }),
    ...ingressOf(ctx, name),
  ];
}

/**
 * The deployment's URL: an Ingress whose host is the URL's host, routed to the server. A URL
 * without a DNS host (a row stored before the URL rule) gets none: an empty host matches all.
 */
function ingressOf(ctx: RenderContext, name: string): V1Ingress[] {
  const host = ingressHost(ctx.input.url);
  if (!host) return [];
  return [
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: metadataOf(ctx.input, "server", name),
      spec: {
        rules: [
          {
            host,
            http: {
              paths: [
                {
                  path: "/",
                  pathType: "Prefix",
                  backend: { service: { name, port: { number: SERVER_PORT } } },
                },
              ],
            },
          },
        ],
      },
    },
  ];
}
