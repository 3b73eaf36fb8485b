import {
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject as ApiObject,
} from "@kubernetes/client-node";
import type { KubernetesObject } from "../manifests";
import { describeObject } from "./recording";
import { StepFailure, type DeployerDriver } from "./types";

// Applies a revision's objects to a cluster with the official client: server-side apply under
// one field manager, so re-applying is idempotent and our fields are ours.

export const FIELD_MANAGER = "hangar";

const statusOf = (error: unknown) => (error as { code?: number }).code;

/** A message naming the object and what the API server said, never the object's contents. */
function failure(object: KubernetesObject, error: unknown): StepFailure {
  const body = (error as { body?: unknown }).body;
  const reason =
    typeof body === "string"
      ? (safeJson(body)?.message ?? `HTTP ${statusOf(error)}`)
      : ((body as { message?: string } | undefined)?.message ?? (error as Error).message);
  return new StepFailure(`Kubernetes refused ${describeObject(object)}: ${reason}`);
}

function safeJson(text: string): { message?: string } | null {
  try {
    return JSON.parse(text) as { message?: string };
  } catch {
    return null;
  }
}

export function kubernetesDeployer(kubeconfig: KubeConfig): DeployerDriver {
  const client = KubernetesObjectApi.makeApiClient(kubeconfig);
  return {
    name: "kubernetes",
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
      return { lines };
    },
    async teardown(objects) {
      const lines: string[] = [];
      // The app before what it depends on; a Namespace may hold other deployments: keep it.
      for (const object of [...objects].reverse()) {
        if (object.kind === "Namespace") continue;
        try {
          await client.delete(object as ApiObject);
          lines.push(`Deleted ${describeObject(object)}`);
        } catch (error) {
          if (statusOf(error) !== 404) throw failure(object, error);
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
