import {
  AppsV1Api,
  CoreV1Api,
  type KubeConfig,
  type V1Deployment,
  type V1LabelSelector,
  type V1Pod,
  type V1StatefulSet,
} from "@kubernetes/client-node";
import type { KubernetesObject } from "../manifests";
import { describeObject } from "../manifests/describe";
import { StepFailure } from "./types";

// After applying, a revision is live only when its workloads are: every Deployment and
// StatefulSet has observed the new spec and has all of its updated replicas available. Pods
// that cannot become ready (an image that cannot be pulled, a container that keeps crashing)
// end the wait at once with Kubernetes' own reason; anything else waits until the timeout.

export interface RolloutOptions {
  /** How long one revision's rollout may take before it fails. */
  timeoutMs: number;
  /** How often the workloads and their pods are read. */
  pollMs: number;
}

type Workload =
  { kind: "Deployment"; object: V1Deployment } | { kind: "StatefulSet"; object: V1StatefulSet };

const IMAGE_PULL_REASONS = new Set([
  "ErrImagePull",
  "ImagePullBackOff",
  "InvalidImageName",
  "ErrImageNeverPull",
]);
/** Waiting reasons that do not heal without a new revision. */
const CONFIG_REASONS = new Set([
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a workload is not yet available (null when it is). */
function pendingReason(workload: Workload): string | null {
  const { object } = workload;
  const generation = object.metadata?.generation ?? 0;
  const status = object.status;
  if (!status || (status.observedGeneration ?? 0) < generation)
    return "waiting for the controller to observe the new spec";
  const wanted = object.spec?.replicas ?? 1;
  if (workload.kind === "Deployment") {
    const deployment = workload.object;
    const stalled = deployment.status?.conditions?.find(
      (c) => c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded",
    );
    if (stalled) throw new StepFailure(`Rollout stalled: ${stalled.message ?? stalled.reason}`);
    const updated = deployment.status?.updatedReplicas ?? 0;
    if (updated < wanted) return `${updated} of ${wanted} replicas updated`;
    if ((deployment.status?.replicas ?? 0) > updated) return "old replicas are still terminating";
    const available = deployment.status?.availableReplicas ?? 0;
    if (available < updated) return `${available} of ${updated} updated replicas available`;
    return null;
  }
  const set = workload.object;
  const ready = set.status?.readyReplicas ?? 0;
  if (ready < wanted) return `${ready} of ${wanted} replicas ready`;
  if (set.status?.updateRevision && set.status.currentRevision !== set.status.updateRevision)
    return "pods are being updated";
  return null;
}

function selectorOf(selector: V1LabelSelector | undefined): string {
  return Object.entries(selector?.matchLabels ?? {})
    .map(([key, value]) => `${key}=${value}`)
    .join(",");
}

/** The last lines a crashed container wrote, if the cluster still has them. */
async function lastWords(core: CoreV1Api, pod: V1Pod, container: string): Promise<string | null> {
  try {
    const log = await core.readNamespacedPodLog({
      name: pod.metadata!.name!,
      namespace: pod.metadata!.namespace!,
      container,
      previous: true,
      tailLines: 5,
    });
    const text = String(log).trim();
    return text ? text : null;
  } catch {
    return null;
  }
}

/** A failure that will not heal by waiting, read from the workload's pods; else the last hint. */
async function podProblem(
  core: CoreV1Api,
  workload: Workload,
): Promise<{ fatal: string | null; hint: string | null }> {
  const { object } = workload;
  const pods = await core.listNamespacedPod({
    namespace: object.metadata!.namespace!,
    labelSelector: selectorOf(object.spec?.selector),
  });
  const name = `${workload.kind} ${object.metadata!.namespace}/${object.metadata!.name}`;
  let hint: string | null = null;
  for (const pod of pods.items) {
    const statuses = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
    ];
    for (const container of statuses) {
      const waiting = container.state?.waiting;
      if (waiting?.reason && IMAGE_PULL_REASONS.has(waiting.reason))
        return {
          fatal: `${name}: image pull failed for container ${container.name} (${waiting.reason}): ${waiting.message ?? container.image}`,
          hint,
        };
      if (waiting?.reason === "CrashLoopBackOff") {
        const last = container.lastState?.terminated;
        const said = last?.message?.trim() || (await lastWords(core, pod, container.name));
        const exit = last
          ? `exit code ${last.exitCode}${last.reason ? `, ${last.reason}` : ""}`
          : "";
        return {
          fatal: `${name}: container ${container.name} is crash-looping${exit ? ` (${exit})` : ""}${said ? `: ${said}` : ""}`,
          hint,
        };
      }
      if (waiting?.reason && CONFIG_REASONS.has(waiting.reason))
        return {
          fatal:
            `${name}: container ${container.name} cannot start (${waiting.reason}): ${waiting.message ?? ""}`.trim(),
          hint,
        };
    }
    const unscheduled = pod.status?.conditions?.find(
      (c) => c.type === "PodScheduled" && c.status === "False",
    );
    if (unscheduled)
      hint =
        `${name}: pod cannot be scheduled (${unscheduled.reason ?? "Unschedulable"}): ${unscheduled.message ?? ""}`.trim();
  }
  return { fatal: null, hint };
}

/**
 * Waits until every Deployment and StatefulSet among `objects` is available. Throws StepFailure
 * with Kubernetes' reason when a pod cannot start, or when the timeout passes (naming what was
 * still missing, e.g. an unschedulable pod).
 */
export async function awaitRollout(
  kubeconfig: KubeConfig,
  objects: KubernetesObject[],
  options: RolloutOptions,
): Promise<string[]> {
  const apps = kubeconfig.makeApiClient(AppsV1Api);
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const targets = objects.filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet");
  const deadline = Date.now() + options.timeoutMs;
  const lines: string[] = [];
  const pending = new Set(targets);
  let lastHint: string | null = null;
  let lastReason = "";

  for (;;) {
    for (const target of [...pending]) {
      const ref = { name: target.metadata!.name!, namespace: target.metadata!.namespace! };
      const workload: Workload =
        target.kind === "Deployment"
          ? { kind: "Deployment", object: await apps.readNamespacedDeployment(ref) }
          : { kind: "StatefulSet", object: await apps.readNamespacedStatefulSet(ref) };
      const reason = pendingReason(workload);
      if (reason === null) {
        pending.delete(target);
        lines.push(`${describeObject(target)} is available`);
        continue;
      }
      lastReason = `${describeObject(target)}: ${reason}`;
      const { fatal, hint } = await podProblem(core, workload);
      if (fatal) throw new StepFailure(`Rollout failed: ${fatal}`, lines);
      if (hint) lastHint = hint;
    }
    if (pending.size === 0) return lines;
    if (Date.now() >= deadline) {
      throw new StepFailure(
        `Rollout did not finish within ${options.timeoutMs / 1000}s: ${lastHint ?? lastReason}`,
        lines,
      );
    }
    await sleep(Math.min(options.pollMs, Math.max(0, deadline - Date.now())));
  }
}
