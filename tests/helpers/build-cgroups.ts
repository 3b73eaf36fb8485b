import { readFileSync } from "node:fs";
import path from "node:path";

// What the kernel holds a process to, read from its control groups (v1 here, v2 elsewhere):
// the bounds a build's sandbox must carry.

export interface ProcessBounds {
  /** The group's path in its hierarchy (the memory one on v1). */
  group: string;
  memoryBytes: number;
  pidsMax: number;
  /** CPUs the quota allows (quota / period). */
  cpus: number;
}

const read = (file: string) => readFileSync(file, "utf8").trim();

export function boundsOf(pid: number): ProcessBounds {
  const lines = read(`/proc/${pid}/cgroup`).split("\n");
  const unified = lines.find((line) => line.startsWith("0::"));
  const v1 = (controller: string) => {
    const line = lines.find((l) => l.split(":")[1]?.split(",").includes(controller));
    if (!line) throw new Error(`no ${controller} group for ${pid}`);
    return path.join("/sys/fs/cgroup", controller, line.split(":")[2]!);
  };
  if (lines.some((l) => l.split(":")[1]?.split(",").includes("memory"))) {
    const memory = v1("memory");
    const [quota, period] = [
      Number(read(path.join(v1("cpu"), "cpu.cfs_quota_us"))),
      Number(read(path.join(v1("cpu"), "cpu.cfs_period_us"))),
    ];
    return {
      group: memory,
      memoryBytes: Number(read(path.join(memory, "memory.limit_in_bytes"))),
      pidsMax: Number(read(path.join(v1("pids"), "pids.max"))),
      cpus: quota / period,
    };
  }
  const dir = path.join("/sys/fs/cgroup", unified!.slice(3));
  const [quota, period] = read(path.join(dir, "cpu.max")).split(" ").map(Number);
  return {
    group: dir,
    memoryBytes: Number(read(path.join(dir, "memory.max"))),
    pidsMax: Number(read(path.join(dir, "pids.max"))),
    cpus: quota! / period!,
  };
}
