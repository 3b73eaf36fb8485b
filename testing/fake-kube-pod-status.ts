import type http from "node:http";
import type { rolloutSimulator } from "./fake-kube-rollout";

// How a simulated pod (fake-kube-pods.ts) looks through the API: its status as the rollout
// behaviour, a fault (crash loop, no node) or an eviction makes it.

export type StoredObject = Record<string, unknown>;
export type Line = [bigint, string];
export type Fault =
  | { kind: "crash_loop"; reason: string; exitCode: number }
  | { kind: "unschedulable"; message: string };

export interface SimContainer {
  name: string;
  image: string;
  /** The template's env, as a real pod's spec carries it. */
  env?: Record<string, unknown>[];
  current: Line[];
  previous: Line[] | null;
  followers: Map<http.ServerResponse, boolean>;
}

export interface SimPod {
  uid: string;
  namespace: string;
  name: string;
  deployment: string;
  deploymentPath: string;
  labels: Record<string, string>;
  containers: SimContainer[];
  restartCount: number;
  lastTerminated: { reason: string; exitCode: number; finishedAt: string } | null;
  fault: Fault | null;
  evicted: boolean;
  createdAt: string;
}

export function statusOf(
  pod: SimPod,
  object: StoredObject | undefined,
  rollout: ReturnType<typeof rolloutSimulator>,
) {
  if (pod.evicted)
    return {
      phase: "Failed",
      reason: "Evicted",
      message: "The node was drained: the pod was evicted.",
    };
  if (pod.fault?.kind === "unschedulable")
    return {
      phase: "Pending",
      conditions: [
        {
          type: "PodScheduled",
          status: "False",
          reason: "Unschedulable",
          message: pod.fault.message,
        },
      ],
    };
  const base = (object ? rollout.podStatusOf(object) : { phase: "Running" }) as {
    phase: string;
    containerStatuses?: Record<string, unknown>[];
  };
  const fault = pod.fault;
  const lastState = pod.lastTerminated ? { terminated: pod.lastTerminated } : {};
  return {
    ...base,
    startTime: pod.createdAt,
    containerStatuses: pod.containers.map((c, i) => {
      const original = base.containerStatuses?.[i] ?? base.containerStatuses?.[0] ?? {};
      if (fault?.kind === "crash_loop")
        return {
          name: c.name,
          image: c.image,
          ready: false,
          restartCount: pod.restartCount,
          state: {
            waiting: {
              reason: "CrashLoopBackOff",
              message: `back-off 10s restarting failed container=${c.name} pod=${pod.name}`,
            },
          },
          lastState,
        };
      return {
        ...original,
        name: c.name,
        image: c.image,
        restartCount: Math.max(pod.restartCount, Number(original.restartCount ?? 0)),
        ...(pod.lastTerminated ? { lastState } : {}),
      };
    }),
  };
}

export const podObject = (
  pod: SimPod,
  object: StoredObject | undefined,
  rollout: ReturnType<typeof rolloutSimulator>,
) => ({
  kind: "Pod",
  apiVersion: "v1",
  metadata: {
    name: pod.name,
    namespace: pod.namespace,
    uid: pod.uid,
    labels: pod.labels,
    creationTimestamp: pod.createdAt,
    ownerReferences: [{ kind: "ReplicaSet", name: pod.name.replace(/-\d+$/, "") }],
  },
  spec: {
    containers: pod.containers.map((c) => ({
      name: c.name,
      image: c.image,
      ...(c.env ? { env: c.env } : {}),
    })),
  },
  status: statusOf(pod, object, rollout),
});
