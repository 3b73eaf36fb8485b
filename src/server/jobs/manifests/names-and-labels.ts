import { createHash } from "node:crypto";
import type { V1ObjectMeta } from "@kubernetes/client-node";
import type { Component, RenderInput } from "./types";

// 52 leaves room for the StatefulSet controller-revision-hash label (name + 11 chars <= 63).
const MAX_NAME = 52;
const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const MANAGED_BY = "hangar";
export const LABEL = {
  deploymentId: "hangar.dev/deployment-id",
  workspaceId: "hangar.dev/workspace-id",
  revision: "hangar.dev/revision",
  deploymentType: "hangar.dev/deployment-type",
  revisionId: "hangar.dev/revision-id",
} as const;

/**
 * `<deployment>-<suffix>`, a DNS-1035 label (Service names need one) of at most 52 characters.
 * Names that would not fit get a stable hash of the deployment id so they stay unique.
 */
export function objectName(deployment: RenderInput["deployment"], suffix?: string): string {
  const base = /^[a-z]/.test(deployment.name) ? deployment.name : `d${deployment.name}`;
  const full = suffix ? `${base}-${suffix}` : base;
  if (full.length <= MAX_NAME && DNS_1035.test(full)) return full;
  const hash = createHash("sha256").update(deployment.id).digest("hex").slice(0, 8);
  const tail = suffix ? `-${hash}-${suffix}` : `-${hash}`;
  return `${base.slice(0, MAX_NAME - tail.length).replace(/-+$/, "")}${tail}`;
}

/** listener_config.k8s_namespace, else one namespace per workspace (the full id: v7 ids share prefixes). */
export function namespaceOf(input: RenderInput): { name: string; owned: boolean } {
  const configured = input.revision.sourceConfig.listener_config?.k8s_namespace;
  if (configured) return { name: configured, owned: false };
  return { name: `hangar-${input.deployment.workspaceId}`, owned: true };
}

function sorted(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Labels that never change for a deployment's component: Deployment selectors are immutable. */
export function selectorLabels(input: RenderInput, component: Component): Record<string, string> {
  return {
    "app.kubernetes.io/component": component,
    [LABEL.deploymentId]: input.deployment.id,
  };
}

/** The spec's labels under ours (ours win, so a user label cannot break a selector). */
export function labelsOf(
  input: RenderInput,
  component: Component,
  { withRevision = true } = {},
): Record<string, string> {
  const { deployment, revision } = input;
  return sorted({
    ...(revision.sourceConfig.resource_spec?.labels ?? {}),
    "app.kubernetes.io/name": deployment.name,
    "app.kubernetes.io/instance": deployment.name,
    "app.kubernetes.io/managed-by": MANAGED_BY,
    [LABEL.workspaceId]: deployment.workspaceId,
    [LABEL.deploymentType]: deployment.deploymentType,
    ...(withRevision ? { [LABEL.revision]: String(revision.number) } : {}),
    ...selectorLabels(input, component),
  });
}

export function annotationsOf(
  input: RenderInput,
  { withRevision = true } = {},
): Record<string, string> {
  return sorted({
    ...(input.revision.sourceConfig.resource_spec?.annotations ?? {}),
    ...(withRevision ? { [LABEL.revisionId]: input.revision.id } : {}),
  });
}

/** Object metadata: every namespaced object carries the common labels and annotations. */
export function metadataOf(input: RenderInput, component: Component, name: string): V1ObjectMeta {
  return {
    name,
    namespace: namespaceOf(input).name,
    labels: labelsOf(input, component),
    annotations: annotationsOf(input),
  };
}
