import {
  AppsV1Api,
  CoreV1Api,
  type CoreV1Event,
  type KubeConfig,
  type V1Deployment,
  type V1Pod,
} from "@kubernetes/client-node";
import { LABELS, observe } from "@/server/cluster/health";
import type { RuntimeObservation } from "@/schemas/runtime";
import { describeError, log } from "@/server/log";
import type { WatchedDeployment } from "@/server/services/runtime/watched";
import { clusterCache, type ClusterCache } from "./cluster-cache";

// The worker's live health watch of Hangar's cluster: one watch of the pods and one of the
// Deployments Hangar manages (label app.kubernetes.io/managed-by=hangar, every namespace), and
// one of Warning events per namespace those pods live in; never a poll per deployment. A
// change marks its deployment; after a short settle the marked deployments are judged
// (cluster/health.ts) and what changed goes to the sink: the worker records it
// (services/runtime/state.ts: status, audit, the dashboard's change event), a listener reports
// it to Hangar. Everything is judged again every resync, in memory: only a difference leaves.

const SELECTOR = `${LABELS.managedBy}=hangar`;

/** Which deployments to judge (with their active revision), and where a changed judgement goes. */
export interface HealthSink {
  targets(ids: string[] | undefined): Promise<WatchedDeployment[]>;
  record(deploymentId: string, observation: RuntimeObservation): Promise<void>;
}

export interface HealthWatch {
  /** Judges the deployment again soon (a revision of it just went live). */
  touch(deploymentId: string): void;
  stop(): void;
}

export function startHealthWatch(
  kubeconfig: KubeConfig,
  sink: HealthSink,
  options: { settleMs: number; resyncMs: number },
): HealthWatch {
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const apps = kubeconfig.makeApiClient(AppsV1Api);
  const dirty = new Set<string>();
  const written = new Map<string, string>();
  const synced = { pods: false, deployments: false };
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  let stopped = false;

  const idOf = (o: V1Pod | V1Deployment) => o.metadata?.labels?.[LABELS.deploymentId];
  const mark = (id: string | undefined) => {
    if (!id || stopped) return;
    dirty.add(id);
    timer ??= setTimeout(() => void flush(), options.settleMs);
  };

  const pods: ClusterCache<V1Pod> = clusterCache<V1Pod>({
    kubeconfig,
    path: "/api/v1/pods",
    query: { labelSelector: SELECTOR },
    list: () => core.listPodForAllNamespaces({ labelSelector: SELECTOR }),
    onChange: (pod) => {
      mark(idOf(pod));
      const namespace = pod.metadata?.namespace;
      if (namespace && !events.has(namespace)) events.set(namespace, eventsOf(namespace));
    },
    onResync: () => (synced.pods = true),
  });
  const deployments: ClusterCache<V1Deployment> = clusterCache<V1Deployment>({
    kubeconfig,
    path: "/apis/apps/v1/deployments",
    query: { labelSelector: SELECTOR },
    list: () => apps.listDeploymentForAllNamespaces({ labelSelector: SELECTOR }),
    onChange: (deployment) => mark(idOf(deployment)),
    onResync: () => (synced.deployments = true),
  });
  const events = new Map<string, ClusterCache<CoreV1Event>>();
  function eventsOf(namespace: string): ClusterCache<CoreV1Event> {
    return clusterCache<CoreV1Event>({
      kubeconfig,
      path: `/api/v1/namespaces/${namespace}/events`,
      query: { fieldSelector: "type=Warning" },
      list: () => core.listNamespacedEvent({ namespace, fieldSelector: "type=Warning" }),
      onChange: (event) => {
        const name = event.involvedObject?.name;
        const pod = pods.objects.get(`${namespace}/${name}`);
        const deployment = deployments.objects.get(`${namespace}/${name}`);
        mark(idOf(pod ?? deployment ?? {}));
      },
    });
  }

  async function judge(ids: string[] | undefined): Promise<void> {
    const targets = await sink.targets(ids);
    const podsOf = new Map<string, V1Pod[]>();
    for (const pod of pods.objects.values()) {
      const id = idOf(pod);
      if (id) podsOf.set(id, [...(podsOf.get(id) ?? []), pod]);
    }
    for (const { id, revision } of targets) {
      const own = podsOf.get(id) ?? [];
      const namespaces = new Set(own.map((p) => p.metadata?.namespace));
      const view = {
        pods: own,
        deployments: [...deployments.objects.values()].filter((d) => idOf(d) === id),
        events: [...namespaces].flatMap((ns) => [
          ...(events.get(ns ?? "")?.objects.values() ?? []),
        ]),
      };
      const observation = observe(view, revision);
      const text = JSON.stringify(observation);
      if (written.get(id) === text) continue;
      await sink.record(id, observation);
      written.set(id, text);
    }
  }

  async function flush(): Promise<void> {
    timer = null;
    if (flushing) {
      await flushing;
      if (dirty.size && !timer) timer = setTimeout(() => void flush(), options.settleMs);
      return;
    }
    // Judged only on a whole view: before the first lists, everything would look gone.
    if (!synced.pods || !synced.deployments) {
      timer = setTimeout(() => void flush(), options.settleMs);
      return;
    }
    const ids = [...dirty];
    dirty.clear();
    flushing = judge(ids)
      .catch((error) => {
        for (const id of ids) dirty.add(id);
        log.warn("health judgement failed", describeError(error));
      })
      .finally(() => (flushing = null));
    await flushing;
  }

  const resync = setInterval(() => {
    if (!synced.pods || !synced.deployments || flushing) return;
    flushing = judge(undefined)
      .catch((error) => log.warn("health resync failed", describeError(error)))
      .finally(() => (flushing = null));
  }, options.resyncMs);
  resync.unref();

  return {
    touch: mark,
    stop() {
      stopped = true;
      clearInterval(resync);
      if (timer) clearTimeout(timer);
      pods.stop();
      deployments.stop();
      for (const cache of events.values()) cache.stop();
    },
  };
}
