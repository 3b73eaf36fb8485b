import { execFile } from "node:child_process";
import { chown, lchown, lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { FORWARDER } from "../sandbox/sandbox";
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

const run = promisify(execFile);

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

/** A workspace id as a folder name (ids are uuids; anything else is refused). */
const WORKSPACE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/i;

/**
 * The builder's folder (workspace stores, build folders) owned by `runAs` and reachable by it.
 * The one layer store earlier versions shared between every workspace is removed: a build
 * could write into layers another workspace's build then used.
 */
export async function prepareBuilderRoot(
  root: string,
  runAs: RunAs | undefined,
  notice: (message: string) => void,
): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const shared of ["storage", "run", "home"]) {
    const folder = path.join(root, shared);
    if (!(await lstat(folder).catch(() => null))) continue;
    notice(
      `Removing ${folder}: builds keep their layers per workspace now (${path.join(root, "workspaces")}), never in one store for all.`,
    );
    await removeStore(folder, runAs);
  }
  for (const name of ["workspaces", "runs"]) {
    const folder = path.join(root, name);
    const info = await lstat(folder).catch(() => null);
    if (info && runAs && info.uid !== runAs.uid) await removeStore(folder, runAs);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    if (runAs) await chown(folder, runAs.uid, runAs.gid);
  }
  if (runAs) {
    await chown(root, runAs.uid, runAs.gid);
    // The sandbox (run as the build user) binds these in: the forwarder and Node.js to run it.
    await grantTraverse([root, FORWARDER, process.execPath], runAs, BUILD_USER, notice);
  }
}

/**
 * Removes a layer store. Its files belong to the build user's subordinate ids: root removes them
 * directly; the build user (a worker not run as root) only inside its user namespace.
 */
async function removeStore(folder: string, runAs: RunAs | undefined): Promise<void> {
  if (runAs || process.getuid?.() === 0) return rm(folder, { recursive: true, force: true });
  await run("buildah", ["unshare", "rm", "-rf", folder]).catch(() =>
    rm(folder, { recursive: true, force: true }),
  );
}

/** One workspace's layer store: storage and run state of its own, created on its first build. */
export async function workspaceStore(root: string, workspace: string, runAs?: RunAs) {
  if (!WORKSPACE_ID.test(workspace)) throw new Error(`Not a workspace id: ${workspace}`);
  const dir = path.join(root, "workspaces", workspace);
  const store = { dir, storage: path.join(dir, "storage"), run: path.join(dir, "run") };
  for (const folder of [dir, store.storage, store.run]) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    if (runAs) await chown(folder, runAs.uid, runAs.gid);
  }
  return store;
}
