import path from "node:path";
import { env, type Env } from "@/env";
import { parseImageReference } from "@/lib/image-reference";
import { getDb } from "@/server/db";
import { log } from "@/server/log";
import { codehostContext } from "../builder/codehost-context";
import { projectBuilder } from "../builder/project-builder";
import type { ImageBuilder } from "../builder/types";
import { uploadContext } from "../builder/upload-context";
import { recordingBuilder, recordingDeployer } from "./recording";
import { codehostSource } from "./source";
import type { DeployerDriver, Drivers } from "./types";

export type { Drivers, Runtime } from "./types";
export { StepFailure } from "./types";

type DriverConfig = Pick<Env, "HANGAR_KUBECONFIG"> &
  Partial<
    Pick<
      Env,
      | "HANGAR_ROLLOUT_TIMEOUT_SECONDS"
      | "HANGAR_DATA_DIR"
      | "HANGAR_BUILD_MAX_BYTES"
      | "HANGAR_BUILD_MAX_FILES"
      | "HANGAR_CODEHOST_ARCHIVE_MAX_BYTES"
      | "HANGAR_CODEHOST_ARCHIVE_TIMEOUT_SECONDS"
      | "HANGAR_BUILDER"
      | "HANGAR_BUILD_TIMEOUT_SECONDS"
      | "HANGAR_BUILD_BASE_IMAGE"
      | "HANGAR_BUILD_NAMESPACE"
      | "HANGAR_BUILD_IMAGE"
      | "HANGAR_BUILD_FETCH_IMAGE"
      | "HANGAR_PUBLIC_URL"
      | "HANGAR_BUILD_CPUS"
      | "HANGAR_BUILD_MEMORY"
      | "HANGAR_BUILD_DISK"
      | "HANGAR_BUILD_EGRESS"
    >
  >;

/** The Kubernetes driver, loaded only when configured. */
async function kubernetes(path: string, timeoutSeconds?: number): Promise<DeployerDriver> {
  const { DEFAULT_ROLLOUT, kubernetesDeployer, loadKubeconfig } = await import("./kubernetes");
  const timeoutMs = timeoutSeconds ? timeoutSeconds * 1000 : DEFAULT_ROLLOUT.timeoutMs;
  return kubernetesDeployer(loadKubeconfig(path), { ...DEFAULT_ROLLOUT, timeoutMs });
}

/** The image builder HANGAR_BUILDER names (null: a dry run), loaded only when configured. */
async function images(config: DriverConfig): Promise<ImageBuilder | null> {
  switch (config.HANGAR_BUILDER) {
    case "buildah": {
      const { buildahBuilder } = await import("../builder/images/buildah");
      const { buildUser } = await import("../builder/images/build-user");
      const dataDir = path.resolve(config.HANGAR_DATA_DIR ?? env.HANGAR_DATA_DIR);
      const notice = (message: string) => log.info(message);
      const { buildBoundsFromEnv } = await import("../builder/bounds");
      const { parseBuildEgress } = await import("@/server/outbound/build-egress");
      const { cgroupLayout, sweepStaleCgroups } = await import("../builder/sandbox/cgroup");
      const { missingTools } = await import("../builder/sandbox/tools");
      // Said once at start as well as by every build it fails: the operator reads this log.
      const problem =
        missingTools("buildah") ??
        (await cgroupLayout(env.HANGAR_BUILD_CGROUP).then(
          () => null,
          (error: Error) => error.message,
        ));
      if (problem) log.warn("builds will fail on this worker", { reason: problem });
      const ended = await sweepStaleCgroups(env.HANGAR_BUILD_CGROUP);
      if (ended) notice(`Ended ${ended} build group(s) a stopped worker left behind.`);
      return buildahBuilder({
        root: path.join(dataDir, "buildah"),
        runAs: await buildUser(notice),
        bounds: buildBoundsFromEnv(),
        egress: parseBuildEgress(env.HANGAR_BUILD_EGRESS),
        cgroupParent: env.HANGAR_BUILD_CGROUP,
        notice,
      });
    }
    case "kubernetes": {
      if (!config.HANGAR_KUBECONFIG)
        throw new Error("HANGAR_BUILDER=kubernetes builds in a cluster: set HANGAR_KUBECONFIG.");
      const { loadKubeconfig } = await import("./kubernetes");
      const { kubernetesImageBuilder } = await import("../builder/images/kubernetes");
      const { buildBoundsFromEnv } = await import("../builder/bounds");
      const { parseBuildEgress } = await import("@/server/outbound/build-egress");
      return kubernetesImageBuilder({
        kubeconfig: loadKubeconfig(config.HANGAR_KUBECONFIG),
        namespace: config.HANGAR_BUILD_NAMESPACE ?? env.HANGAR_BUILD_NAMESPACE,
        builderImage: config.HANGAR_BUILD_IMAGE ?? env.HANGAR_BUILD_IMAGE,
        fetchImage: config.HANGAR_BUILD_FETCH_IMAGE ?? env.HANGAR_BUILD_FETCH_IMAGE,
        timeoutSeconds: config.HANGAR_BUILD_TIMEOUT_SECONDS ?? env.HANGAR_BUILD_TIMEOUT_SECONDS,
        publicUrl: config.HANGAR_PUBLIC_URL ?? env.HANGAR_PUBLIC_URL,
        bounds: buildBoundsFromEnv({
          HANGAR_BUILD_CPUS: config.HANGAR_BUILD_CPUS ?? env.HANGAR_BUILD_CPUS,
          HANGAR_BUILD_MEMORY: config.HANGAR_BUILD_MEMORY ?? env.HANGAR_BUILD_MEMORY,
          HANGAR_BUILD_DISK: config.HANGAR_BUILD_DISK ?? env.HANGAR_BUILD_DISK,
          HANGAR_BUILD_PROCESSES: env.HANGAR_BUILD_PROCESSES,
        }),
        // Refused at start when malformed; names in it are resolved at each build.
        egress: parseBuildEgress(config.HANGAR_BUILD_EGRESS ?? env.HANGAR_BUILD_EGRESS),
        db: getDb,
      });
    }
    default:
      return null;
  }
}

/**
 * The drivers configuration selects: a kubeconfig makes deploys real, a builder (HANGAR_BUILDER)
 * builds; else each is a dry run (recorded, nothing built or started). Tests pass their own
 * drivers to the worker instead.
 */
export async function driversFromEnv(config: DriverConfig = env): Promise<Drivers> {
  const archiveLimits = {
    maxBytes: config.HANGAR_BUILD_MAX_BYTES ?? env.HANGAR_BUILD_MAX_BYTES,
    maxFiles: config.HANGAR_BUILD_MAX_FILES ?? env.HANGAR_BUILD_MAX_FILES,
  };
  return {
    source: codehostSource(),
    builder: projectBuilder(recordingBuilder(), {
      contextsDir: path.resolve(config.HANGAR_DATA_DIR ?? env.HANGAR_DATA_DIR, "builds"),
      sources: {
        internal_source: uploadContext(archiveLimits),
        codehost: codehostContext({
          limits: archiveLimits,
          download: {
            maxBytes:
              config.HANGAR_CODEHOST_ARCHIVE_MAX_BYTES ?? env.HANGAR_CODEHOST_ARCHIVE_MAX_BYTES,
            timeoutMs:
              (config.HANGAR_CODEHOST_ARCHIVE_TIMEOUT_SECONDS ??
                env.HANGAR_CODEHOST_ARCHIVE_TIMEOUT_SECONDS) * 1000,
          },
        }),
      },
      images: await images(config),
      baseImage: config.HANGAR_BUILD_BASE_IMAGE
        ? parseImageReference(config.HANGAR_BUILD_BASE_IMAGE)
        : null,
    }),
    deployer: config.HANGAR_KUBECONFIG
      ? await kubernetes(config.HANGAR_KUBECONFIG, config.HANGAR_ROLLOUT_TIMEOUT_SECONDS)
      : recordingDeployer(),
  };
}
