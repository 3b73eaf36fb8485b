import { createHash } from "node:crypto";
import type { KubernetesObject } from "../manifests";
import type { BuilderDriver, BuildPlan, DeployerDriver } from "./types";

// The default drivers when no cluster or builder is configured: they compute and record what a
// real one would do (an image name addressed by the build plan's hash, the rendered objects).

const IMAGE_REPOSITORY = "hangar.local/builds";

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** Keys sorted at every level, so equal plans hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export const imageRefOf = (plan: BuildPlan) =>
  `${IMAGE_REPOSITORY}:${createHash("sha256").update(canonical(plan)).digest("hex")}`;

export function recordingBuilder(delayMs = 0): BuilderDriver {
  return {
    async build(plan) {
      await sleep(delayMs);
      const lines = [
        ...(plan.install_command ? [`Install: ${plan.install_command}`] : []),
        ...(plan.build_command ? [`Build: ${plan.build_command}`] : []),
        `Image ${imageRefOf(plan)}`,
      ];
      return { imageRef: imageRefOf(plan), lines };
    },
  };
}

const describe = (o: KubernetesObject) =>
  `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata?.name}`;

export function recordingDeployer(delayMs = 0): DeployerDriver {
  return {
    name: "record",
    async apply(objects) {
      await sleep(delayMs);
      return {
        lines: [
          ...objects.map((o) => `Rendered ${describe(o)}`),
          "No cluster configured: manifests recorded",
        ],
      };
    },
    async teardown(objects) {
      return { lines: objects.map((o) => `Forgot ${describe(o)}`) };
    },
  };
}

export { describe as describeObject, sleep };
