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

/** The Kubernetes driver, loaded only when configured. */
async function kubernetes(path: string): Promise<DeployerDriver> {
  const { kubernetesDeployer, loadKubeconfig } = await import("./kubernetes");
  return kubernetesDeployer(loadKubeconfig(path));
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
