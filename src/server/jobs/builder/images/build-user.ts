import { chown, lchown, lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  ensureSubordinateIds,
  ensureSystemUser,
  grantTraverse,
  type RunAs,
} from "@/lib/system-users";

// A build's steps run the project's code. buildah's chroot isolation is no boundary (a step can
// chroot its way out), so when Hangar runs as root the local builder runs buildah as the system
// user `hangar-build`, rootless (a user namespace maps the image's root to that user): a step
// that escapes is that user, who can read none of Hangar's secrets (keys, database password).

export const BUILD_USER = "hangar-build";

/** The user builds run as: none (this process's own) unless this process is root. */
export async function buildUser(notice: (message: string) => void): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const runAs = await ensureSystemUser(BUILD_USER, "to run builds (never as root)", notice);
  await ensureSubordinateIds(BUILD_USER, notice);
  return runAs;
}

/** Hands a tree to `runAs`; links are changed themselves, never followed. */
export async function chownTree(target: string, runAs: RunAs): Promise<void> {
  if ((await lstat(target)).isDirectory())
    for (const name of await readdir(target)) await chownTree(path.join(target, name), runAs);
  await lchown(target, runAs.uid, runAs.gid);
}

/**
 * The builder's folder (storage, run state, home) owned by `runAs` and reachable by it. A layer
 * cache another user made (root, before builds ran as `runAs`) is dropped: it is only a cache.
 */
export async function prepareBuilderRoot(
  root: string,
  runAs: RunAs,
  notice: (message: string) => void,
): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const name of ["storage", "run", "home", "runs"]) {
    const folder = path.join(root, name);
    const info = await lstat(folder).catch(() => null);
    if (info && info.uid !== runAs.uid) {
      if (name === "storage")
        notice(
          `Starting a new build cache in ${folder}: the old one was not made by '${BUILD_USER}'.`,
        );
      await rm(folder, { recursive: true, force: true });
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await chown(folder, runAs.uid, runAs.gid);
  }
  await chown(root, runAs.uid, runAs.gid);
  await grantTraverse([root], runAs, BUILD_USER, notice);
}
