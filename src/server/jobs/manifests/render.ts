import type { V1Namespace } from "@kubernetes/client-node";
import { stringify } from "yaml";
import { cacheObjects } from "./cache";
import { contextOf, type RenderContext } from "./context";
import { databaseObjects } from "./database";
import { LABEL, MANAGED_BY } from "./names-and-labels";
import { appSecret, tracingSecret } from "./secrets";
import { serverObjects } from "./server";
import type { KubernetesObject, RenderInput } from "./types";
import { workerObjects } from "./workers";

/**
 * The default per-workspace namespace is ours, so we render it; a listener_config namespace
 * belongs to whoever runs the listener and must already exist. The Namespace is shared by the
 * workspace's deployments: it carries no deployment labels, and tearing one down must keep it.
 */
function namespaceObject(ctx: RenderContext): V1Namespace[] {
  if (!ctx.namespace.owned) return [];
  return [
    {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: ctx.namespace.name,
        labels: {
          "app.kubernetes.io/managed-by": MANAGED_BY,
          [LABEL.workspaceId]: ctx.input.deployment.workspaceId,
        },
      },
    },
  ];
}

/** Plain JSON: no null or undefined members (the spec's pass-through objects carry nulls). */
function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v != null)
      .map(([k, v]) => [k, compact(v)]),
  ) as T;
}

/**
 * Every Kubernetes object of a revision, in apply order (namespace, secrets, backing services,
 * then the app). Pure and deterministic: the same input renders the same objects.
 * Every source, external_container included, gets its own Redis and Postgres: the server needs
 * both, and a secret named REDIS_URI or DATABASE_URI points it at the user's own instead.
 */
export function renderManifests(input: RenderInput): KubernetesObject[] {
  const ctx = contextOf(input);
  return compact([
    ...namespaceObject(ctx),
    appSecret(ctx),
    ...tracingSecret(ctx),
    ...databaseObjects(ctx),
    ...cacheObjects(ctx),
    ...serverObjects(ctx),
    ...workerObjects(ctx),
  ]);
}

/** One multi-document YAML stream, as `kubectl apply -f` takes it. */
export function toYaml(objects: KubernetesObject[]): string {
  return objects.map((object) => stringify(object)).join("---\n");
}
