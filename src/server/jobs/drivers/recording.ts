import { createHash } from "node:crypto";
import { describeObject as describe } from "../manifests/describe";
import type { BuilderDriver, BuildPlan, DeployerDriver } from "./types";

// The default drivers when no cluster or builder is configured: they compute and record what a
// real one would do (an image name addressed by the build plan's hash, the rendered objects).

const IMAGE_REPOSITORY = "hangar.local/builds";

/** What a dry run says at its end (the revision's final message and its last log line). */
export const DRY_RUN_MESSAGE =
  "Dry run: no cluster is configured (HANGAR_KUBECONFIG), so nothing was started; the manifests are recorded.";

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

export function recordingBuilder(): BuilderDriver {
  return {
    async build(plan) {
      const lines = [
        ...(plan.install_command ? [`Install command (not run): ${plan.install_command}`] : []),
        ...(plan.build_command ? [`Build command (not run): ${plan.build_command}`] : []),
        `Dry run: no image was built; ${imageRefOf(plan)} names this build plan`,
      ];
      return { imageRef: imageRefOf(plan), imageDigest: null, lines };
    },
  };
}

export function recordingDeployer(): DeployerDriver {
  return {
    name: "record",
    runtime: "dry_run",
    async apply(objects) {
      return {
        lines: [...objects.map((o) => `Rendered ${describe(o)}`), DRY_RUN_MESSAGE],
      };
    },
    async teardown(objects) {
      return { lines: objects.map((o) => `Forgot ${describe(o)}`) };
    },
  };
}
