import { env, type Env } from "@/env";
import { parseByteQuantity } from "@/lib/quantity";

// What one build may use, from the settings (README "Builds"): the local builder enforces them
// with a cgroup and a disk watch, the Kubernetes builder as the build pod's requests and limits.

export interface BuildBounds {
  /** CPUs (a fraction is a share of one). */
  cpus: number;
  /** Memory as the setting writes it ("4Gi") and in bytes. */
  memory: string;
  memoryBytes: number;
  /** Disk the build may write, as written and in bytes. */
  disk: string;
  diskBytes: number;
  /** Processes and threads at once. */
  processes: number;
}

type BoundSettings = Pick<
  Env,
  "HANGAR_BUILD_CPUS" | "HANGAR_BUILD_MEMORY" | "HANGAR_BUILD_DISK" | "HANGAR_BUILD_PROCESSES"
>;

/** The bounds of `settings` (the environment's, or a driver configuration's). */
export function buildBoundsFromEnv(settings: BoundSettings = env): BuildBounds {
  return {
    cpus: settings.HANGAR_BUILD_CPUS,
    memory: settings.HANGAR_BUILD_MEMORY,
    memoryBytes: parseByteQuantity(settings.HANGAR_BUILD_MEMORY)!,
    disk: settings.HANGAR_BUILD_DISK,
    diskBytes: parseByteQuantity(settings.HANGAR_BUILD_DISK)!,
    processes: settings.HANGAR_BUILD_PROCESSES,
  };
}
