import { readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BuildBounds } from "../bounds";

// One control group per build: the kernel holds the build (every process of its sandbox) to
// its CPU, memory and process bounds, counts what it refused, and ends every process in it when
// the build ends. cgroup v2 (the unified hierarchy of current distributions) or, where the
// controllers are bound to v1 hierarchies (this machine, older hosts), cgroup v1. The groups
// live under `hangar-builds` next to (v2) or below (v1) the worker's own group, named
// `<worker pid>-<build>`, so a worker that starts can end what a dead one left running.

const CONTROLLERS = ["cpu", "memory", "pids"] as const;
const PERIOD_US = 100_000;
const PARENT = "hangar-builds";

export class CgroupUnavailable extends Error {
  override name = "CgroupUnavailable";
}

export interface CgroupEvents {
  /** Processes the kernel killed for memory. */
  oomKills: number;
  /** Forks refused at the process limit. */
  forksRefused: number;
  /** Processes and threads in it now (what its pids limit counts). */
  processes: number;
  /**
   * Bytes of its memory nothing can reclaim without swap (anonymous memory and tmpfs/shared
   * pages): at its memory limit, the build is out of memory whether or not the kernel kills it.
   */
  memoryHeld: number;
}

export interface BuildCgroup {
  /** The cgroup.procs files a process writes its pid to, to join (one per hierarchy). */
  readonly procsFiles: readonly string[];
  events(): Promise<CgroupEvents>;
  /** Ends every process in it and waits until it is empty. */
  kill(): Promise<void>;
  /** Ends every process in it, waits until it is empty, removes it. */
  destroy(): Promise<void>;
}

interface Layout {
  kind: "v1" | "v2";
  /** Parent folder per controller (v2: one folder for all). */
  parents: Record<(typeof CONTROLLERS)[number] | "freezer", string | null>;
}

interface Mount {
  root: string;
  point: string;
  type: string;
  options: string[];
}

function mounts(): Mount[] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .flatMap((line) => {
      const [left, right] = line.split(" - ");
      if (!left || !right) return [];
      const fields = left.split(" ");
      const [type, , superOptions] = right.split(" ");
      return [
        {
          root: fields[3]!,
          point: fields[4]!.replace(/\\040/g, " "),
          type: type!,
          options: (superOptions ?? "").split(","),
        },
      ];
    });
}

/** The worker's own group per hierarchy: "" for v2, else the controller list as written. */
function ownGroups(): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of readFileSync("/proc/self/cgroup", "utf8").trim().split("\n")) {
    const [, controllers, where] = line.split(":");
    for (const name of controllers === "" ? [""] : controllers!.split(","))
      own.set(name, where ?? "/");
  }
  return own;
}

const inMount = (mount: Mount, group: string) =>
  path.join(mount.point, group.startsWith(mount.root) ? group.slice(mount.root.length) : group);

async function writable(folder: string): Promise<boolean> {
  try {
    await mkdir(folder, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/** v2: the first candidate where the three controllers can be given to build groups. */
async function v2Parent(mount: Mount, own: string, override?: string): Promise<string | null> {
  const available = (await readFile(path.join(mount.point, "cgroup.controllers"), "utf8"))
    .trim()
    .split(/\s+/);
  if (!CONTROLLERS.every((c) => available.includes(c))) return null;
  const candidates = override
    ? [override]
    : [path.join(path.dirname(inMount(mount, own)), PARENT), path.join(mount.point, PARENT)];
  for (const candidate of candidates) {
    if (!(await writable(candidate))) continue;
    try {
      // Each level from the mount down hands the controllers to the next.
      const levels = path.relative(mount.point, candidate).split(path.sep);
      let folder = mount.point;
      for (const level of levels) {
        await writeFile(path.join(folder, "cgroup.subtree_control"), "+cpu +memory +pids");
        folder = path.join(folder, level);
      }
      await writeFile(path.join(candidate, "cgroup.subtree_control"), "+cpu +memory +pids");
      return candidate;
    } catch {
      continue;
    }
  }
  return null;
}

let layout: Promise<Layout> | undefined;

async function detect(override?: string): Promise<Layout> {
  const all = mounts();
  const own = ownGroups();
  const unified = all.find((m) => m.type === "cgroup2");
  if (unified) {
    const parent = await v2Parent(unified, own.get("") ?? "/", override).catch(() => null);
    if (parent)
      return {
        kind: "v2",
        parents: { cpu: parent, memory: parent, pids: parent, freezer: parent },
      };
  }
  const v1 = async (controller: string) => {
    const mount = all.find((m) => m.type === "cgroup" && m.options.includes(controller));
    const group = [...own.entries()].find(([name]) => name.split(",").includes(controller));
    if (!mount) return null;
    const parent = path.join(inMount(mount, group?.[1] ?? "/"), PARENT);
    return (await writable(parent)) ? parent : null;
  };
  const [cpu, memory, pids, freezer] = await Promise.all(
    ["cpu", "memory", "pids", "freezer"].map(v1),
  );
  if (cpu && memory && pids)
    return { kind: "v1", parents: { cpu, memory, pids, freezer: freezer ?? null } };
  throw new CgroupUnavailable(
    "Builds need a control group to hold them to their bounds (HANGAR_BUILD_CPUS, _MEMORY, _PROCESSES), and this worker can create none: run it as root, or give it a delegated cgroup v2 folder with the cpu, memory and pids controllers (HANGAR_BUILD_CGROUP; README, Builds).",
  );
}

/** How this machine's groups are laid out (found once). */
export function cgroupLayout(override?: string): Promise<Layout> {
  layout ??= detect(override);
  return layout;
}

const readNumber = async (file: string, key?: string) => {
  const text = await readFile(file, "utf8").catch(() => "");
  if (!key) return Number(text.trim()) || 0;
  const line = text.split("\n").find((l) => l.startsWith(`${key} `));
  return Number(line?.split(" ")[1] ?? 0);
};

const countTasks = async (folder: string) =>
  (await readFile(path.join(folder, "cgroup.procs"), "utf8").catch(() => ""))
    .split("\n")
    .filter(Boolean);

/** Kills every process in `folders` (frozen first where a freezer is at hand) until none is left. */
async function killAll(folders: string[], freezer: string | null, kind: Layout["kind"]) {
  if (kind === "v2") {
    await writeFile(path.join(folders[0]!, "cgroup.kill"), "1").catch(() => undefined);
  }
  for (let round = 0; round < 200; round++) {
    const pids = new Set((await Promise.all(folders.map(countTasks))).flat());
    if (pids.size === 0) return;
    if (freezer) await writeFile(path.join(freezer, "freezer.state"), "FROZEN").catch(() => {});
    for (const pid of pids) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    if (freezer) await writeFile(path.join(freezer, "freezer.state"), "THAWED").catch(() => {});
    await sleep(25);
  }
}

async function removeFolder(folder: string) {
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      await rmdir(folder);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      await sleep(50);
    }
  }
}

/** A build's group with its bounds written, ready to be joined. */
export async function createBuildCgroup(
  build: string,
  bounds: BuildBounds,
  override?: string,
): Promise<BuildCgroup> {
  const found = await cgroupLayout(override);
  const name = `${process.pid}-${build}`;
  const folder = (controller: keyof Layout["parents"]) =>
    found.parents[controller] ? path.join(found.parents[controller], name) : null;
  const quota = Math.max(1000, Math.round(bounds.cpus * PERIOD_US));
  let folders: string[];
  let freezer: string | null = null;
  if (found.kind === "v2") {
    const dir = folder("memory")!;
    await mkdir(dir);
    await writeFile(path.join(dir, "memory.max"), String(bounds.memoryBytes));
    await writeFile(path.join(dir, "memory.swap.max"), "0").catch(() => undefined);
    await writeFile(path.join(dir, "pids.max"), String(bounds.processes));
    await writeFile(path.join(dir, "cpu.max"), `${quota} ${PERIOD_US}`);
    folders = [dir];
  } else {
    const [cpu, memory, pids] = [folder("cpu")!, folder("memory")!, folder("pids")!];
    freezer = folder("freezer");
    await Promise.all([cpu, memory, pids, ...(freezer ? [freezer] : [])].map((d) => mkdir(d)));
    await writeFile(path.join(memory, "memory.limit_in_bytes"), String(bounds.memoryBytes));
    await writeFile(
      path.join(memory, "memory.memsw.limit_in_bytes"),
      String(bounds.memoryBytes),
    ).catch(() => undefined);
    await writeFile(path.join(pids, "pids.max"), String(bounds.processes));
    await writeFile(path.join(cpu, "cpu.cfs_period_us"), String(PERIOD_US));
    await writeFile(path.join(cpu, "cpu.cfs_quota_us"), String(quota));
    folders = [cpu, memory, pids, ...(freezer ? [freezer] : [])];
  }
  const memoryDir = folder("memory")!;
  const pidsDir = folder("pids")!;
  return {
    procsFiles: folders.map((d) => path.join(d, "cgroup.procs")),
    async events() {
      const stat = path.join(memoryDir, "memory.stat");
      const [oomKills, forksRefused, processes, anon, shmem] = await Promise.all([
        found.kind === "v2"
          ? readNumber(path.join(memoryDir, "memory.events"), "oom_kill")
          : readNumber(path.join(memoryDir, "memory.oom_control"), "oom_kill"),
        readNumber(path.join(pidsDir, "pids.events"), "max"),
        readNumber(path.join(pidsDir, "pids.current")),
        readNumber(stat, found.kind === "v2" ? "anon" : "total_rss"),
        readNumber(stat, found.kind === "v2" ? "shmem" : "total_shmem"),
      ]);
      return { oomKills, forksRefused, processes, memoryHeld: anon + shmem };
    },
    kill: () => killAll(folders, freezer, found.kind),
    async destroy() {
      await killAll(folders, freezer, found.kind);
      await Promise.all(folders.map(removeFolder));
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Ends and removes the groups of builds whose worker is gone (killed mid-build). */
export async function sweepStaleCgroups(override?: string): Promise<number> {
  const found = await cgroupLayout(override).catch(() => null);
  if (!found) return 0;
  const parents = [...new Set(Object.values(found.parents).filter((p): p is string => !!p))];
  const stale = new Set<string>();
  for (const parent of parents)
    for (const name of await readdir(parent).catch(() => [])) {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (pid && pid !== process.pid && !alive(pid)) stale.add(name);
    }
  for (const name of stale) {
    const folders = parents.map((p) => path.join(p, name));
    const freezer = found.parents.freezer ? path.join(found.parents.freezer, name) : null;
    await killAll(folders, found.kind === "v1" ? freezer : null, found.kind);
    await Promise.all(folders.map(removeFolder));
  }
  return stale.size;
}
