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

/** How many of a Deployment's pods are ready when its pods say otherwise (faults), else null. */
export type ReadyOverride = (path: string) => number | null;

export function rolloutSimulator(readyOverride: ReadyOverride = () => null) {
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

    /**
     * The workload as the API server reports it: its generation and a simulated status. A read
     * counts towards readyAfterReads; a watch's view (`read: false`) does not.
     */
    withStatus(path: string, object: StoredObject, { read = true } = {}) {
      const count = (reads.get(path) ?? 0) + (read ? 1 : 0);
      if (read) reads.set(path, count);
      const wanted = (object.spec as WorkloadSpec | undefined)?.replicas ?? 1;
      const observedGeneration = generations.get(path) ?? 1;
      const metadata = { ...(object.metadata as StoredObject), generation: observedGeneration };
      if (object.kind === "StatefulSet") {
        const status = { observedGeneration, replicas: wanted, readyReplicas: wanted };
        return { ...object, metadata, status: { ...status, updatedReplicas: wanted } };
      }
      const ready = behaviourOf(object) === "ready" && count > (options.readyAfterReads ?? 0);
      const available = Math.min(wanted, readyOverride(path) ?? (ready ? wanted : 0));
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

    /** What a new pod of this Deployment shows, as the rollout behaviour says. */
    podStatusOf(object: StoredObject) {
      return podStatus(containerOf(object), behaviourOf(object));
    },

    /** Whether a new pod of this Deployment crash-loops (its previous container's log: CRASH_LOG). */
    crashes: (object: StoredObject) => behaviourOf(object) === "crash_loop",
  };
}
