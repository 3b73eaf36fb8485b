import type {
  V1Container,
  V1Deployment,
  V1PodSpec,
  V1Volume,
  V1VolumeMount,
} from "@kubernetes/client-node";
import type { RenderContext } from "./context";
import { annotationsOf, labelsOf, metadataOf, selectorLabels } from "./names-and-labels";
import {
  autoscalerOf,
  autoscales,
  resourcesOf,
  type ResourcePrefix,
  type Scale,
} from "./resources";
import { appEnv } from "./secrets";
import type { Component, KubernetesObject } from "./types";

export const SERVER_PORT = 8000;

/**
 * The spec's pod settings apply to every process running the revision's image (server, queue,
 * orchestrator, executor): they run the same code, so they need the same mounts and sidecars.
 * The spec's free-form members are passed through as given (render drops their nulls).
 */
function appPodSpec(ctx: RenderContext, main: V1Container): V1PodSpec {
  const { spec } = ctx;
  return {
    serviceAccountName: spec.service_account_name ?? undefined,
    imagePullSecrets: spec.image_pull_secrets ?? undefined,
    volumes: (spec.volumes ?? undefined) as V1Volume[] | undefined,
    initContainers: (spec.init_containers ?? undefined) as V1Container[] | undefined,
    containers: [main, ...((spec.sidecars ?? []) as V1Container[])],
  };
}

export interface AppWorkload {
  component: Component;
  name: string;
  prefix: ResourcePrefix;
  scale: Scale;
  port?: number;
}

/** A Deployment of the revision's image, plus its autoscaler when the scale is a range. */
export function appWorkload(ctx: RenderContext, w: AppWorkload): KubernetesObject[] {
  const { input, spec } = ctx;
  const autoscaled = autoscales(w.scale);
  const main: V1Container = {
    name: w.component,
    image: input.revision.imageRef,
    ports: w.port ? [{ name: "http", containerPort: w.port, protocol: "TCP" }] : undefined,
    env: appEnv(ctx, w.component),
    resources: resourcesOf(spec, w.prefix),
    volumeMounts: (spec.volume_mounts ?? undefined) as V1VolumeMount[] | undefined,
  };
  const deployment: V1Deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: metadataOf(input, w.component, w.name),
    spec: {
      // Under an autoscaler the replica count is its to set, except an idle (0) deployment.
      replicas: autoscaled && w.scale.min > 0 ? undefined : w.scale.min,
      selector: { matchLabels: selectorLabels(input, w.component) },
      template: {
        metadata: { labels: labelsOf(input, w.component), annotations: annotationsOf(input) },
        spec: appPodSpec(ctx, main),
      },
    },
  };
  return autoscaled ? [deployment, autoscalerOf(ctx, w.component, w.name, w.scale)] : [deployment];
}
