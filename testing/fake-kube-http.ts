import type http from "node:http";
import type { WatchKind } from "./fake-kube-watch";

// The HTTP side of the fake Kubernetes API (fake-kube-api.ts): discovery, paths, answers.

export interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** Discovery: the resources of each group/version the renderer uses. */
export const API_RESOURCES: Record<string, ApiResource[]> = {
  v1: [
    { name: "namespaces", kind: "Namespace", namespaced: false },
    { name: "secrets", kind: "Secret", namespaced: true },
    { name: "services", kind: "Service", namespaced: true },
    { name: "pods", kind: "Pod", namespaced: true },
    { name: "events", kind: "Event", namespaced: true },
  ],
  "apps/v1": [
    { name: "deployments", kind: "Deployment", namespaced: true },
    { name: "statefulsets", kind: "StatefulSet", namespaced: true },
  ],
  "networking.k8s.io/v1": [
    { name: "ingresses", kind: "Ingress", namespaced: true },
    { name: "networkpolicies", kind: "NetworkPolicy", namespaced: true },
  ],
  "batch/v1": [{ name: "jobs", kind: "Job", namespaced: true }],
  "autoscaling/v2": [
    { name: "horizontalpodautoscalers", kind: "HorizontalPodAutoscaler", namespaced: true },
  ],
};

export function status(code: number, message: string, reason: string) {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  };
}

export function send(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The group/version and the rest of a path: /api/v1/... or /apis/<group>/<version>/... */
export function splitPath(pathname: string): { groupVersion: string; rest: string[] } | null {
  const segments = pathname.split("/").filter(Boolean);
  if (segments[0] === "api" && segments.length >= 2)
    return { groupVersion: segments[1]!, rest: segments.slice(2) };
  if (segments[0] === "apis" && segments.length >= 3)
    return { groupVersion: `${segments[1]}/${segments[2]}`, rest: segments.slice(3) };
  return null;
}

/** The resource and object an object path names, if it is one (namespaced or cluster-scoped). */
export function objectOf(rest: string[], resources: ApiResource[]) {
  const namespaced = rest.length === 4 && rest[0] === "namespaces";
  if (!namespaced && rest.length !== 2) return null;
  const [plural, name] = namespaced ? [rest[2]!, rest[3]!] : [rest[0]!, rest[1]!];
  const resource = resources.find((r) => r.name === plural && r.namespaced === namespaced);
  return resource ? { resource, name, namespace: namespaced ? rest[1] : undefined } : null;
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const labelsMatch = (labels: Record<string, string> | undefined, selector: string) =>
  selector
    .split(",")
    .filter(Boolean)
    .map((pair) => pair.split("="))
    .every(([key, value]) => labels?.[key!] === value);

/** A list a watch may follow: pods, deployments or events, in a namespace or all. */
export function listOf(split: { groupVersion: string; rest: string[] }) {
  const { groupVersion, rest } = split;
  const [plural, namespace] =
    rest.length === 1
      ? [rest[0], null]
      : rest.length === 3 && rest[0] === "namespaces"
        ? [rest[2], rest[1]!]
        : [];
  if (groupVersion === "v1" && (plural === "pods" || plural === "events"))
    return { kind: plural as WatchKind, namespace: namespace ?? null };
  if (groupVersion === "apps/v1" && plural === "deployments")
    return { kind: "deployments" as const, namespace: namespace ?? null };
  return null;
}
