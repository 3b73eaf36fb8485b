// The rollout half of the fake Kubernetes API (fake-kube-api.ts): what a GET of an applied
// Deployment or StatefulSet reports, and the pods of a Deployment. `setRollout` chooses what the
// cluster does with the revision's containers: become ready (perhaps after some reads), fail to
// pull the image, crash-loop, or wait for a node that never comes. Other workloads (the database,
// the cache) are always ready.

export type RolloutBehaviour = "ready" | "image_pull_failure" | "crash_loop" | "unschedulable";

export interface RolloutOptions {
  /** "ready" answers not-yet-available for this many reads of each workload first. */
  readyAfterReads?: number;
  /** Only Deployments running this image follow the behaviour (default: every Deployment). */
  image?: string;
}

/** What a crash-looping container wrote before it exited. */
export const CRASH_LOG =
  "Traceback (most recent call last):\nModuleNotFoundError: No module named 'agent'";
export const UNSCHEDULABLE_MESSAGE = "0/3 nodes are available: 3 Insufficient cpu.";

type StoredObject = Record<string, unknown>;
interface Container {
  name: string;
  image: string;
}
interface WorkloadSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: { spec?: { containers?: Container[] } };
}

const containerOf = (object: StoredObject): Container =>
  (object.spec as WorkloadSpec | undefined)?.template?.spec?.containers?.[0] ?? {
    name: "app",
    image: "",
  };

export function rolloutSimulator(objects: Map<string, StoredObject>) {
  let behaviour: RolloutBehaviour = "ready";
  let options: RolloutOptions = {};
  const reads = new Map<string, number>();
  const generations = new Map<string, number>();

  const behaviourOf = (object: StoredObject): RolloutBehaviour =>
    object.kind === "Deployment" && (!options.image || containerOf(object).image === options.image)
      ? behaviour
      : "ready";

  function podStatus(container: Container, what: RolloutBehaviour) {
    const base = { name: container.name, image: container.image, ready: false, restartCount: 0 };
    const waiting = (reason: string, message: string) => ({ waiting: { reason, message } });
    switch (what) {
      case "image_pull_failure":
        return {
          phase: "Pending",
          containerStatuses: [
            {
              ...base,
              state: waiting("ImagePullBackOff", `Back-off pulling image "${container.image}"`),
            },
          ],
        };
      case "crash_loop":
        return {
          phase: "Running",
          containerStatuses: [
            {
              ...base,
              restartCount: 4,
              state: waiting("CrashLoopBackOff", `back-off 1m20s restarting ${container.name}`),
              lastState: { terminated: { exitCode: 1, reason: "Error" } },
            },
          ],
        };
      case "unschedulable":
        return {
          phase: "Pending",
          conditions: [
            {
              type: "PodScheduled",
              status: "False",
              reason: "Unschedulable",
              message: UNSCHEDULABLE_MESSAGE,
            },
          ],
        };
      default:
        return {
          phase: "Running",
          containerStatuses: [{ ...base, ready: true, state: { running: {} } }],
        };
    }
  }

  return {
    set(next: RolloutBehaviour, nextOptions: RolloutOptions = {}) {
      behaviour = next;
      options = nextOptions;
    },

    /** An apply changed the object: a new generation, not yet observed. */
    applied(path: string) {
      generations.set(path, (generations.get(path) ?? 0) + 1);
      reads.delete(path);
    },

    /** The workload as the API server reports it: its generation and a simulated status. */
    withStatus(path: string, object: StoredObject) {
      const count = (reads.get(path) ?? 0) + 1;
      reads.set(path, count);
      const wanted = (object.spec as WorkloadSpec | undefined)?.replicas ?? 1;
      const observedGeneration = generations.get(path) ?? 1;
      const metadata = { ...(object.metadata as StoredObject), generation: observedGeneration };
      if (object.kind === "StatefulSet") {
        const status = { observedGeneration, replicas: wanted, readyReplicas: wanted };
        return { ...object, metadata, status: { ...status, updatedReplicas: wanted } };
      }
      const ready = behaviourOf(object) === "ready" && count > (options.readyAfterReads ?? 0);
      const available = ready ? wanted : 0;
      const status = {
        observedGeneration,
        replicas: wanted,
        updatedReplicas: wanted,
        availableReplicas: available,
        readyReplicas: available,
        unavailableReplicas: wanted - available,
      };
      return { ...object, metadata, status };
    },

    /** The pods of the namespace's Deployments that `labelSelector` selects. */
    pods(namespace: string, labelSelector: string) {
      const wanted = labelSelector
        .split(",")
        .filter(Boolean)
        .map((pair) => pair.split("="));
      const items = [];
      for (const [path, object] of objects) {
        if (object.kind !== "Deployment" || !path.includes(`/namespaces/${namespace}/`)) continue;
        const labels = (object.spec as WorkloadSpec).selector?.matchLabels ?? {};
        if (!wanted.every(([key, value]) => labels[key!] === value)) continue;
        const name = (object.metadata as { name: string }).name;
        items.push({
          metadata: { name: `${name}-7d4b9c-x2k1p`, namespace, labels },
          status: podStatus(containerOf(object), behaviourOf(object)),
        });
      }
      return { kind: "PodList", apiVersion: "v1", metadata: {}, items };
    },

    /** A container's previous log: a crash loop's last words. */
    previousLog: () => (behaviour === "crash_loop" ? CRASH_LOG : ""),
  };
}
