import type { CoreV1Event, V1Deployment, V1Pod } from "@kubernetes/client-node";
import type { RuntimeObservation } from "@/schemas/runtime";

// A deployment's health as its cluster objects show it: only the active revision's pods count
// (a newer revision still rolling out, or an older one going away, says nothing about what
// serves). Healthy while every component has its desired replicas ready; otherwise the reason
// is Kubernetes' own (CrashLoopBackOff, OOMKilled, ImagePullBackOff, Unschedulable, Evicted...)
// or, without one, how many are ready.

/** The components running the revision's image (not its database or cache). */
export const APP_COMPONENTS = new Set(["server", "queue", "orchestrator", "executor"]);

export const LABELS = {
  managedBy: "app.kubernetes.io/managed-by",
  component: "app.kubernetes.io/component",
  deploymentId: "hangar.dev/deployment-id",
  revision: "hangar.dev/revision",
} as const;

const EVENTS_KEPT = 5;
const WAITING_REASONS = new Set([
  "CrashLoopBackOff",
  "ImagePullBackOff",
  "ErrImagePull",
  "InvalidImageName",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
]);

export interface ClusterView {
  deployments: V1Deployment[];
  pods: V1Pod[];
  events: CoreV1Event[];
}

const iso = (d: Date | string | undefined | null) =>
  d ? new Date(d as string | Date).toISOString() : null;

const podRevision = (pod: V1Pod) => {
  const value = Number(pod.metadata?.labels?.[LABELS.revision]);
  return Number.isInteger(value) ? value : null;
};

/** Kubernetes' reason a pod does not serve, if it names one. */
export function podProblem(pod: V1Pod): string | null {
  if (pod.status?.phase === "Failed" && pod.status.reason === "Evicted") return "Evicted";
  for (const container of pod.status?.containerStatuses ?? []) {
    const waiting = container.state?.waiting?.reason;
    if (waiting && WAITING_REASONS.has(waiting)) {
      const last = container.lastState?.terminated?.reason;
      return waiting === "CrashLoopBackOff" && last === "OOMKilled"
        ? "OOMKilled (CrashLoopBackOff)"
        : waiting;
    }
  }
  const unscheduled = pod.status?.conditions?.find(
    (c) => c.type === "PodScheduled" && c.status === "False",
  );
  return unscheduled ? (unscheduled.reason ?? "Unschedulable") : null;
}

const podReady = (pod: V1Pod) =>
  pod.status?.phase === "Running" &&
  (pod.status.containerStatuses ?? []).length > 0 &&
  (pod.status.containerStatuses ?? []).every((c) => c.ready);

const restartsOf = (pod: V1Pod) =>
  (pod.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);

function lastTermination(pods: V1Pod[]): RuntimeObservation["last_termination"] {
  let last: RuntimeObservation["last_termination"] = null;
  const later = (at: string | null) => !last || (at ?? "") > (last.at ?? "");
  for (const pod of pods) {
    const name = pod.metadata?.name ?? "";
    if (pod.status?.reason === "Evicted") {
      const at = iso(pod.status.startTime);
      if (later(at)) last = { reason: "Evicted", exit_code: null, at, pod: name, container: null };
    }
    for (const c of pod.status?.containerStatuses ?? []) {
      const t = c.lastState?.terminated;
      if (!t?.reason) continue;
      const at = iso(t.finishedAt);
      if (later(at))
        last = {
          reason: t.reason,
          exit_code: t.exitCode ?? null,
          at,
          pod: name,
          container: c.name,
        };
    }
  }
  return last;
}

/** The pods that serve revision `revision`: its own, and those no revision owns (the cache). */
const serving = (pods: V1Pod[], revision: number) =>
  pods.filter((p) => {
    const own = podRevision(p);
    return own === null || own === revision;
  });

/** The observation of one deployment whose active revision is `revision`. */
export function observe(view: ClusterView, revision: number): RuntimeObservation {
  const active = serving(view.pods, revision);
  const components = view.deployments
    .map((d) => {
      const component = d.metadata?.labels?.[LABELS.component] ?? d.metadata?.name ?? "app";
      const own = active.filter((p) => p.metadata?.labels?.[LABELS.component] === component);
      return {
        component,
        ready: own.filter(podReady).length,
        desired: d.spec?.replicas ?? 1,
        restarts: own.reduce((n, p) => n + restartsOf(p), 0),
      };
    })
    .sort((a, b) => a.component.localeCompare(b.component));
  const ready = components.reduce((n, c) => n + c.ready, 0);
  const desired = components.reduce((n, c) => n + c.desired, 0);
  const healthy = components.length > 0 && components.every((c) => c.ready >= c.desired);
  const named = active.map(podProblem).find((reason) => reason !== null) ?? null;
  const reason = healthy
    ? null
    : components.length === 0
      ? "Its workloads are not in the cluster"
      : (named ?? `${ready}/${desired} replicas ready`);
  const podNames = new Set(view.pods.map((p) => p.metadata?.name));
  const deploymentNames = new Set(view.deployments.map((d) => d.metadata?.name));
  const events = view.events
    .filter(
      (e) =>
        e.type === "Warning" &&
        (podNames.has(e.involvedObject.name) || deploymentNames.has(e.involvedObject.name)),
    )
    .map((e) => ({
      at: iso(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp),
      reason: e.reason ?? "",
      message: e.message ?? "",
      object: `${e.involvedObject.kind}/${e.involvedObject.name}`,
      count: e.count ?? 1,
    }))
    .sort((a, b) => (b.at ?? "").localeCompare(a.at ?? ""))
    .slice(0, EVENTS_KEPT);
  return {
    healthy,
    reason,
    ready_replicas: ready,
    desired_replicas: desired,
    restarts: components.reduce((n, c) => n + c.restarts, 0),
    last_termination: lastTermination(active),
    components,
    events,
  };
}
