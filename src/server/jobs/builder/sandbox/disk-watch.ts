import { lstat, opendir, readdir, statfs } from "node:fs/promises";
import path from "node:path";

// The disk a build writes, measured while it runs: its own folder (context, temporary files)
// and every layer or working container it added to its workspace's storage since it started
// (buildah's vfs driver keeps each in a folder of its own under vfs/dir). A walk costs time on
// large trees, so the file system's used space (one statfs) decides when to walk: only when it
// grew by a good part of what is left of the bound since the last walk. A single file is held
// to the bound by the kernel (RLIMIT_FSIZE, set on the sandbox); this catches many files.

const CHECK_MS = 1000;
const MIN_GROWTH = 16 * 1024 * 1024;

export interface DiskWatch {
  /** Bytes measured at the last walk. */
  measured(): number;
  stop(): Promise<void>;
}

/** Bytes a tree holds on disk (allocated blocks: a sparse file counts what it really uses). */
export async function diskUsage(root: string): Promise<number> {
  const info = await lstat(root).catch(() => null);
  if (!info) return 0;
  let total = info.blocks * 512;
  if (!info.isDirectory()) return total;
  const dir = await opendir(root).catch(() => null);
  if (!dir) return total;
  for await (const entry of dir) {
    const child = path.join(root, entry.name);
    total += entry.isDirectory()
      ? await diskUsage(child)
      : ((await lstat(child).catch(() => null))?.blocks ?? 0) * 512;
  }
  return total;
}

const usedOn = async (folder: string) => {
  const fs = await statfs(folder);
  return (fs.blocks - fs.bfree) * fs.bsize;
};

/**
 * Watches the build's folder and the new entries of `layerDirs` (folders whose entries existing
 * now belong to earlier builds); calls `onExceeded` once when they pass `limitBytes`.
 */
export async function watchDisk(options: {
  buildDir: string;
  layerDirs: string[];
  limitBytes: number;
  onExceeded(bytes: number): void;
}): Promise<DiskWatch> {
  const before = new Map<string, Set<string>>();
  for (const dir of options.layerDirs) before.set(dir, new Set(await readdir(dir).catch(() => [])));
  let measured = 0;
  let usedAtWalk = await usedOn(options.buildDir);
  let exceeded = false;
  let running: Promise<void> = Promise.resolve();

  const walk = async () => {
    let total = await diskUsage(options.buildDir);
    for (const [dir, old] of before)
      for (const name of await readdir(dir).catch(() => []))
        if (!old.has(name)) total += await diskUsage(path.join(dir, name));
    measured = total;
    if (measured > options.limitBytes && !exceeded) {
      exceeded = true;
      options.onExceeded(measured);
    }
  };
  const check = async () => {
    const used = await usedOn(options.buildDir).catch(() => usedAtWalk);
    const left = Math.max(0, options.limitBytes - measured);
    if (used - usedAtWalk < Math.max(MIN_GROWTH, left / 4)) return;
    usedAtWalk = used;
    await walk();
  };
  const timer = setInterval(() => {
    running = running.then(check).catch(() => undefined);
  }, CHECK_MS);
  return {
    measured: () => measured,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
