import type { V1Deployment } from "@kubernetes/client-node";
import type { RenderContext } from "./context";
import { annotationsOf, labelsOf, metadataOf, selectorLabels } from "./names-and-labels";
import { resourcesOf } from "./resources";
import { REDIS_PORT } from "./secrets";
import { serviceOf } from "./service";
import type { KubernetesObject } from "./types";

export const REDIS_IMAGE = "redis:7-alpine";

/**
 * `<name>-redis`: one Redis (a cache and queue broker, so not persisted) and its Service.
 * Its pods carry no revision label or annotation, so a new revision does not restart it.
 */
export function cacheObjects(ctx: RenderContext): KubernetesObject[] {
  const { input, names } = ctx;
  const stable = { withRevision: false };
  const deployment: V1Deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: metadataOf(input, "redis", names.redis),
    spec: {
      replicas: 1,
      strategy: { type: "Recreate" },
      selector: { matchLabels: selectorLabels(input, "redis") },
      template: {
        metadata: {
          labels: labelsOf(input, "redis", stable),
          annotations: annotationsOf(input, stable),
        },
        spec: {
          containers: [
            {
              name: "redis",
              image: REDIS_IMAGE,
              ports: [{ name: "redis", containerPort: REDIS_PORT, protocol: "TCP" }],
              resources: resourcesOf(ctx.spec, "redis_"),
            },
          ],
        },
      },
    },
  };
  return [deployment, serviceOf(ctx, "redis", names.redis, { name: "redis", port: REDIS_PORT })];
}
