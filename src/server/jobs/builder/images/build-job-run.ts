import { setTimeout as sleep } from "node:timers/promises";
import {
  BatchV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1ContainerStatus,
  type V1Job,
  type V1Pod,
} from "@kubernetes/client-node";
import { env } from "@/env";
import { harmlessLine } from "@/lib/log-text";
import { log } from "@/server/log";
import { reasonOf, statusOf } from "../../drivers/kubernetes";
import { StepFailure, type BuildIo } from "../../drivers/types";
import {
  BUILD_LABEL,
  BUILDER_CONTAINER,
  buildJob,
  buildJobName,
  buildSecret,
  FETCH_CONTAINER,
  type BuildJobSpec,
} from "./build-job";
import { BuildkitOutput, LAST_LINES } from "./buildkit-output";
import { followContainerLog } from "./pod-log";

// Runs one build Job to its end: creates it (suspended) and its Secret, starts it, follows the
// builder's log into the build log, reads the outcome from the Job's status and the pushed
// digest from the builder's termination message, and deletes the Job (its pod and Secret go
// with it) whatever happened, at once when the build is interrupted.

export interface JobRunOptions {
  /** How often the Job and its pod are read. */
  pollMs: number;
  /** How long to wait for the rest of the log once the Job has finished. */
  drainMs: number;
}

/** Past the Job's own deadline, how long the worker waits for the cluster to say so. */
const DEADLINE_GRACE_MS = 60_000;
/** Reads of the Job's progress that may fail in a row before the build does. */
const MAX_UNREAD = 5;
const CANNOT_START = new Set([
  "ErrImagePull",
  "ImagePullBackOff",
  "InvalidImageName",
  "ErrImageNeverPull",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
]);

type Outcome = { succeeded: true } | { succeeded: false; reason?: string; message?: string };

function outcomeOf(job: V1Job): Outcome | null {
  for (const condition of job.status?.conditions ?? []) {
    if (condition.status !== "True") continue;
    if (condition.type === "Complete") return { succeeded: true };
    if (condition.type === "Failed")
      return { succeeded: false, reason: condition.reason, message: condition.message };
  }
  return null;
}

const statusIn = (statuses: V1ContainerStatus[] | undefined, name: string) =>
  statuses?.find((s) => s.name === name);

/** Why the pod will never start (an image that cannot be pulled...), or null. */
function cannotStart(pod: V1Pod): string | null {
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  for (const status of statuses) {
    const waiting = status.state?.waiting;
    if (waiting?.reason && CANNOT_START.has(waiting.reason))
      return `container ${status.name} cannot start (${waiting.reason}): ${waiting.message ?? status.image}`;
  }
  return null;
}

const timedOut = (seconds: number) =>
  new StepFailure(
    `The build did not finish within ${seconds}s (HANGAR_BUILD_TIMEOUT_SECONDS): its Job was stopped.`,
  );

/** `containerimage.digest` of buildctl's metadata file, as the container's termination message. */
function digestOf(message: string | undefined): string | null {
  try {
    const digest = (JSON.parse(message ?? "") as Record<string, unknown>)["containerimage.digest"];
    return typeof digest === "string" && /^sha256:[0-9a-f]{64}$/.test(digest) ? digest : null;
  } catch {
    return null;
  }
}

export async function runBuildJob(
  kubeconfig: KubeConfig,
  spec: BuildJobSpec,
  contextUrl: string,
  io: BuildIo,
  options: JobRunOptions,
): Promise<{ digest: string }> {
  const batch = kubeconfig.makeApiClient(BatchV1Api);
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const name = buildJobName(spec.id);
  const namespace = spec.namespace;
  const refused = (what: string) => (error: unknown) => {
    throw new StepFailure(`Kubernetes refused ${what} ${namespace}/${name}: ${reasonOf(error)}`);
  };

  const created = await batch
    .createNamespacedJob({ namespace, body: buildJob(spec) })
    .catch(refused("the build Job"));
  try {
    await core
      .createNamespacedSecret({
        namespace,
        body: buildSecret(spec, contextUrl, created.metadata!.uid!),
      })
      .catch(refused("the build Secret"));
    await batch
      .patchNamespacedJob(
        { name, namespace, body: { spec: { suspend: false } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      )
      .catch(refused("starting the build Job"));
    io.log([`Build Job ${namespace}/${name} started (${spec.builderImage})`]);
    return await watch();
  } finally {
    await batch
      .deleteNamespacedJob({ name, namespace, propagationPolicy: "Background" })
      .catch((error: unknown) => {
        if (statusOf(error) !== 404)
          log.warn("could not delete a build Job", {
            job: `${namespace}/${name}`,
            reason: reasonOf(error),
          });
      });
  }

  async function watch(): Promise<{ digest: string }> {
    const output = new BuildkitOutput();
    const follower = followContainerLog(
      kubeconfig,
      core,
      { namespace, container: BUILDER_CONTAINER, retryMs: options.pollMs },
      (lines) => {
        for (const line of lines) output.add(line);
        io.log(lines);
      },
    );
    const deadline = Date.now() + spec.timeoutSeconds * 1000 + DEADLINE_GRACE_MS;
    try {
      let outcome: Outcome | null = null;
      let pod: V1Pod | undefined;
      let unread = 0;
      for (;;) {
        io.signal.throwIfAborted();
        try {
          outcome = outcomeOf(await batch.readNamespacedJob({ name, namespace }));
          pod = (
            await core.listNamespacedPod({ namespace, labelSelector: `${BUILD_LABEL}=${spec.id}` })
          ).items[0];
          unread = 0;
        } catch (error) {
          if (statusOf(error) === 404)
            throw new StepFailure(
              `The build Job ${namespace}/${name} was deleted by someone else.`,
            );
          // One failed read (the API server restarting) does not end a long build; a streak does.
          if (++unread >= MAX_UNREAD)
            throw new StepFailure(`Could not read the build Job's progress: ${reasonOf(error)}`);
          await sleep(options.pollMs, undefined, { signal: io.signal }).catch(() => undefined);
          continue;
        }
        const problem = pod && !outcome ? cannotStart(pod) : null;
        if (problem) throw new StepFailure(`The build pod cannot start: ${problem}`);
        const state = statusIn(pod?.status?.containerStatuses, BUILDER_CONTAINER)?.state;
        if (state?.running || state?.terminated) follower.start(pod!.metadata!.name!);
        if (outcome) break;
        if (Date.now() > deadline) throw timedOut(spec.timeoutSeconds);
        await sleep(options.pollMs, undefined, { signal: io.signal }).catch(() => undefined);
      }
      // The log ends once the container has: wait a little for its last lines.
      await Promise.race([
        follower.done(),
        sleep(options.drainMs, undefined, { signal: io.signal }).catch(() => undefined),
      ]);
      io.signal.throwIfAborted();
      return await result(outcome, pod, output);
    } finally {
      follower.stop();
    }
  }

  async function result(
    outcome: Outcome,
    pod: V1Pod | undefined,
    output: BuildkitOutput,
  ): Promise<{ digest: string }> {
    const builder = statusIn(pod?.status?.containerStatuses, BUILDER_CONTAINER)?.state?.terminated;
    if (outcome.succeeded) {
      const digest = digestOf(builder?.message);
      if (!digest)
        throw new StepFailure("The build finished, but its builder reported no image digest.");
      return { digest };
    }
    if (outcome.reason === "DeadlineExceeded") throw timedOut(spec.timeoutSeconds);
    if (!pod)
      throw new StepFailure(
        `The build Job failed: ${outcome.message ?? outcome.reason ?? "no reason given"}`,
      );
    // The kubelet evicts a pod that writes more than its ephemeral-storage limit.
    if (pod.status?.reason === "Evicted")
      throw new StepFailure(
        `The build pod was evicted: ${(pod.status.message ?? "no reason given").replace(/\.$/, "")}. A build may write HANGAR_BUILD_DISK (${spec.bounds.disk}).`,
      );
    const fetch = statusIn(pod.status?.initContainerStatuses, FETCH_CONTAINER)?.state?.terminated;
    if (fetch && fetch.exitCode !== 0) {
      const said = await core
        .readNamespacedPodLog({
          name: pod.metadata!.name!,
          namespace,
          container: FETCH_CONTAINER,
          tailLines: LAST_LINES,
        })
        .then((text) =>
          String(text)
            .split("\n")
            .filter(Boolean)
            .map((line) => harmlessLine(line, env.HANGAR_LOG_MAX_LINE)),
        )
        .catch(() => []);
      throw new StepFailure(
        `Fetching the build context failed: ${said.at(-1) ?? `exit code ${fetch.exitCode}`}`,
        said,
      );
    }
    if (builder?.reason === "OOMKilled")
      throw new StepFailure(
        `The builder ran out of memory (OOMKilled). A build may use HANGAR_BUILD_MEMORY (${spec.bounds.memory}).`,
      );
    throw output.failure(builder?.exitCode);
  }
}
