import { env, type Env } from "@/env";
import { recordingBuilder, recordingDeployer, sleep } from "./recording";
import { codehostSource } from "./source";
import type { DeployerDriver, Drivers, SourceDriver } from "./types";

export type { Drivers } from "./types";
export { StepFailure } from "./types";

type DriverConfig = Pick<Env, "HANGAR_KUBECONFIG" | "HANGAR_FAKE_STEP_DELAY_MS">;

const slowed = (driver: SourceDriver, delayMs: number): SourceDriver => ({
  resolve: async (input) => {
    await sleep(delayMs);
    return driver.resolve(input);
  },
});

/**
 * The Kubernetes driver, loaded only when configured: its client (@kubernetes/client-node 2,
 * through undici 8) needs Node >= 22.19 and fails to load on older runtimes.
 */
async function kubernetes(path: string): Promise<DeployerDriver> {
  try {
    const { kubernetesDeployer, loadKubeconfig } = await import("./kubernetes");
    return kubernetesDeployer(loadKubeconfig(path));
  } catch (error) {
    throw new Error(
      `HANGAR_KUBECONFIG is set but the Kubernetes driver could not start (${(error as Error).message}); ` +
        `it needs Node >= 22.19 and a readable kubeconfig.`,
    );
  }
}

/** The drivers configuration selects: a kubeconfig makes deploys real; else they are recorded. */
export async function driversFromEnv(config: DriverConfig = env): Promise<Drivers> {
  const delay = config.HANGAR_FAKE_STEP_DELAY_MS;
  return {
    source: delay ? slowed(codehostSource(), delay) : codehostSource(),
    builder: recordingBuilder(delay),
    deployer: config.HANGAR_KUBECONFIG
      ? await kubernetes(config.HANGAR_KUBECONFIG)
      : recordingDeployer(delay),
  };
}
