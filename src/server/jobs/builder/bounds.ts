import { env } from "@/env";
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

export function buildBoundsFromEnv(): BuildBounds {
  return {
    cpus: env.HANGAR_BUILD_CPUS,
    memory: env.HANGAR_BUILD_MEMORY,
    memoryBytes: parseByteQuantity(env.HANGAR_BUILD_MEMORY)!,
    disk: env.HANGAR_BUILD_DISK,
    diskBytes: parseByteQuantity(env.HANGAR_BUILD_DISK)!,
    processes: env.HANGAR_BUILD_PROCESSES,
  };
}
