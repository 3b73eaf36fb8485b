import {
  ApiException,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject as ApiObject,
} from "@kubernetes/client-node";
import type { KubernetesObject } from "../manifests";
import { describeObject } from "../manifests/describe";
import { awaitRollout, type RolloutOptions } from "./kubernetes-rollout";
import { StepFailure, type DeployerDriver } from "./types";

// Applies a revision's objects to a cluster with the official client: server-side apply under
// one field manager, so re-applying is idempotent and our fields are ours.

export const FIELD_MANAGER = "hangar";

export const statusOf = (error: unknown) => (error instanceof ApiException ? error.code : undefined);

export const reasonOf = (error: unknown) =>
  error instanceof ApiException
    ? (statusMessage(error.body) ?? `HTTP ${error.code}`)
    : (error as Error).message;

/** A message naming the object and what the API server said, never the object's contents. */
function failure(object: KubernetesObject, error: unknown): StepFailure {
  return new StepFailure(`Kubernetes refused ${describeObject(object)}: ${reasonOf(error)}`);
}

/** 1.4's ApiException carries the response text; the API server's is a JSON Status. */
function statusMessage(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    return (JSON.parse(body) as { message?: string }).message;
  } catch {
    return undefined;
  }
}

export const DEFAULT_ROLLOUT: RolloutOptions = { timeoutMs: 300_000, pollMs: 2_000 };

/** Applies a revision's objects, then waits for its rollout (see kubernetes-rollout.ts). */
export function kubernetesDeployer(
  kubeconfig: KubeConfig,
  rollout: RolloutOptions = DEFAULT_ROLLOUT,
): DeployerDriver {
  const client = KubernetesObjectApi.makeApiClient(kubeconfig);
  return {
    name: "kubernetes",
    runtime: "kubernetes",
    async apply(objects) {
      const lines: string[] = [];
      for (const object of objects) {
        try {
          await client.patch(
            object as ApiObject,
            undefined,
            undefined,
            FIELD_MANAGER,
            true,
            PatchStrategy.ServerSideApply,
          );
        } catch (error) {
          throw failure(object, error);
        }
        lines.push(`Applied ${describeObject(object)}`);
      }
      lines.push(`Waiting for the rollout (up to ${rollout.timeoutMs / 1000}s)`);
      try {
        lines.push(...(await awaitRollout(kubeconfig, objects, rollout)));
      } catch (error) {
        if (error instanceof StepFailure)
          throw new StepFailure(error.message, [...lines, ...error.lines]);
        throw new StepFailure(`Could not read the rollout's progress: ${reasonOf(error)}`, lines);
      }
      return { lines };
    },
    async teardown(objects) {
      const lines: string[] = [];
      // The app before what it depends on; a Namespace may hold other deployments: keep it.
      for (const object of [...objects].reverse()) {
        if (object.kind === "Namespace") continue;
        try {
          // Background: the API server then collects the ReplicaSets and Pods they own.
          await client.delete(
            object as ApiObject,
            undefined,
            undefined,
            undefined,
            undefined,
            "Background",
          );
          lines.push(`Deleted ${describeObject(object)}`);
        } catch (error) {
          if (statusOf(error) !== 404) throw failure(object, error);
          lines.push(`${describeObject(object)} was already gone`);
        }
      }
      return { lines };
    },
  };
}

/** The cluster a kubeconfig file points at (its current context). */
export function loadKubeconfig(path: string): KubeConfig {
  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromFile(path);
  return kubeconfig;
}
