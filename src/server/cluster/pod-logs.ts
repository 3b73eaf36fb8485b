import { createHash } from "node:crypto";
import { ApiException, CoreV1Api, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { APP_COMPONENTS, LABELS } from "./health";

// Reads a deployment's runtime logs straight from its cluster (pass-through: Hangar keeps no
// copy): every pod of the deployment's image (each replica of the server, the queue workers;
// not its database or cache), each
// container, and the container's previous run when it restarted. The lines come with the
// kubelet's timestamps, so they merge in order across replicas.

export interface PodLogLine {
  /** RFC 3339 with nine fraction digits: sorts as text. */
  key: string;
  /** Stable across reads: the pod, container, run, timestamp and its place among equal ones. */
  id: string;
  pod: string;
  container: string;
  previous: boolean;
  text: string;
}

export interface PodSummary {
  name: string;
  component: string | null;
  revision: number | null;
  ready: boolean;
  restarts: number;
  containers: string[];
}

export interface LogRead {
  namespace: string;
  deploymentId: string;
  /** Lines at or after this time (asked as sinceSeconds, then filtered exactly). */
  since?: Date;
  /** At most this many lines per container, the newest (a read back from now). */
  tailLines?: number;
  /** At most this many bytes per container, the oldest from `since` (a read forward). */
  limitBytes?: number;
  pod?: string | null;
}

/** Orders RFC 3339 UTC timestamps whatever their fraction's length (Go trims its zeros). */
export function stampKey(stamp: string): string {
  const match = /^([^.Z]+)(?:\.(\d+))?Z$/.exec(stamp);
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(9, "0").slice(0, 9)}Z` : stamp;
}

export function summarizePod(pod: V1Pod): PodSummary {
  const statuses = pod.status?.containerStatuses ?? [];
  const revision = Number(pod.metadata?.labels?.[LABELS.revision]);
  return {
    name: pod.metadata?.name ?? "",
    component: pod.metadata?.labels?.[LABELS.component] ?? null,
    revision: Number.isInteger(revision) ? revision : null,
    ready: statuses.length > 0 && statuses.every((c) => c.ready),
    restarts: statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    containers: (pod.spec?.containers ?? []).map((c) => c.name),
  };
}

function parse(text: string, pod: string, container: string, previous: boolean): PodLogLine[] {
  const seen = new Map<string, number>();
  const lines: PodLogLine[] = [];
  for (const raw of text.split("\n")) {
    const space = raw.indexOf(" ");
    if (space <= 0) continue;
    const key = stampKey(raw.slice(0, space));
    const body = raw.slice(space + 1).replace(/\r$/, "");
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const id = createHash("sha256")
      .update(`${pod}\n${container}\n${previous ? 1 : 0}\n${key}\n${n}`)
      .digest("base64url")
      .slice(0, 22);
    lines.push({ key, id, pod, container, previous, text: body });
  }
  return lines;
}

async function readOne(
  core: CoreV1Api,
  read: LogRead,
  pod: PodSummary,
  container: string,
  previous: boolean,
): Promise<PodLogLine[]> {
  try {
    const text = await core.readNamespacedPodLog({
      name: pod.name,
      namespace: read.namespace,
      container,
      previous,
      timestamps: true,
      // The client has no sinceTime: a second more than the time since `since` reaches it.
      sinceSeconds: read.since
        ? Math.max(1, Math.ceil((Date.now() - read.since.getTime()) / 1000) + 1)
        : undefined,
      tailLines: read.tailLines,
      limitBytes: read.limitBytes,
    });
    const since = read.since ? stampKey(read.since.toISOString()) : null;
    return parse(String(text), pod.name, container, previous).filter(
      (l) => !since || l.key >= since,
    );
  } catch (error) {
    // A container that has not started yet, or has no previous run: nothing to read.
    if (error instanceof ApiException && (error.code === 400 || error.code === 404)) return [];
    throw error;
  }
}

/** The deployment's pods and their lines (unsorted). */
export async function readDeploymentLogs(
  kubeconfig: KubeConfig,
  read: LogRead,
): Promise<{ pods: PodSummary[]; lines: PodLogLine[] }> {
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const list = await core.listNamespacedPod({
    namespace: read.namespace,
    labelSelector: `${LABELS.deploymentId}=${read.deploymentId}`,
  });
  const pods = list.items
    .map(summarizePod)
    .filter((pod) => APP_COMPONENTS.has(pod.component ?? ""))
    .sort(
      (a, b) =>
        (a.component ?? "").localeCompare(b.component ?? "") || a.name.localeCompare(b.name),
    );
  const reads: Promise<PodLogLine[]>[] = [];
  for (const pod of pods) {
    if (read.pod && pod.name !== read.pod) continue;
    for (const container of pod.containers) {
      reads.push(readOne(core, read, pod, container, false));
      if (pod.restarts > 0) reads.push(readOne(core, read, pod, container, true));
    }
  }
  return { pods, lines: (await Promise.all(reads)).flat() };
}
