import path from "node:path";
import { env, type Env } from "@/env";
import { projectBuilder } from "../builder/project-builder";
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
    >
  >;

/** The Kubernetes driver, loaded only when configured. */
async function kubernetes(path: string, timeoutSeconds?: number): Promise<DeployerDriver> {
  const { DEFAULT_ROLLOUT, kubernetesDeployer, loadKubeconfig } = await import("./kubernetes");
  const timeoutMs = timeoutSeconds ? timeoutSeconds * 1000 : DEFAULT_ROLLOUT.timeoutMs;
  return kubernetesDeployer(loadKubeconfig(path), { ...DEFAULT_ROLLOUT, timeoutMs });
}

/**
 * The drivers configuration selects: a kubeconfig makes deploys real; else they are a dry run
 * (recorded, nothing started). Tests pass their own drivers to the worker instead.
 */
export async function driversFromEnv(config: DriverConfig = env): Promise<Drivers> {
  return {
    source: codehostSource(),
    builder: projectBuilder(recordingBuilder(), {
      contextsDir: path.resolve(config.HANGAR_DATA_DIR ?? env.HANGAR_DATA_DIR, "builds"),
      sources: {
        internal_source: uploadContext({
          maxBytes: config.HANGAR_BUILD_MAX_BYTES ?? env.HANGAR_BUILD_MAX_BYTES,
          maxFiles: config.HANGAR_BUILD_MAX_FILES ?? env.HANGAR_BUILD_MAX_FILES,
        }),
      },
      images: null,
    }),
    deployer: config.HANGAR_KUBECONFIG
      ? await kubernetes(config.HANGAR_KUBECONFIG, config.HANGAR_ROLLOUT_TIMEOUT_SECONDS)
      : recordingDeployer(),
  };
}
