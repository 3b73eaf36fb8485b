import { execFile } from "node:child_process";
import { chmod, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

// System users Hangar runs helpers as when it runs as root (containers, CI machines): PostgreSQL
// refuses root, and builds must not run the project's steps as root. Created when missing.

const run = promisify(execFile);

export interface RunAs {
  uid: number;
  gid: number;
}

async function ids(user: string): Promise<RunAs | null> {
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", user]), run("id", ["-g", user])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null;
  }
}

/** The user `name`, created as a system user (with its own group, no home) when missing. */
export async function ensureSystemUser(
  name: string,
  why: string,
  notice: (message: string) => void,
): Promise<RunAs> {
  const existing = await ids(name);
  if (existing) return existing;
  notice(`Creating the system user '${name}' ${why}.`);
  await run("useradd", ["--system", "--user-group", "--no-create-home", name]);
  const created = await ids(name);
  if (!created) throw new Error(`Could not create the system user '${name}'.`);
  return created;
}

const SUBORDINATE_START = 100_000;
const SUBORDINATE_COUNT = 65_536;

/** `name:start:count` lines of /etc/subuid or /etc/subgid. */
async function ranges(file: string): Promise<{ name: string; end: number }[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.split("\n").flatMap((line) => {
    const [name, start, count] = line.trim().split(":");
    return name && start && count ? [{ name, end: Number(start) + Number(count) }] : [];
  });
}

/**
 * Gives `name` subordinate uid and gid ranges (what a user namespace maps a container's users
 * to), past every range already handed out, when it has none.
 */
export async function ensureSubordinateIds(
  name: string,
  notice: (message: string) => void,
): Promise<void> {
  const [uids, gids] = await Promise.all([ranges("/etc/subuid"), ranges("/etc/subgid")]);
  if (uids.some((r) => r.name === name) && gids.some((r) => r.name === name)) return;
  const start = Math.max(SUBORDINATE_START, ...uids.map((r) => r.end), ...gids.map((r) => r.end));
  const span = `${start}-${start + SUBORDINATE_COUNT - 1}`;
  notice(
    `Giving the system user '${name}' the subordinate ids ${span} (/etc/subuid, /etc/subgid).`,
  );
  await run("usermod", ["--add-subuids", span, "--add-subgids", span, name]);
}

/**
 * Lets `runAs` traverse every folder above `targets` (a folder made by `mktemp -d` is 0700):
 * adds only the others-execute bit, and says so, where it is missing.
 */
export async function grantTraverse(
  targets: string[],
  runAs: RunAs,
  who: string,
  notice: (message: string) => void,
): Promise<void> {
  const folders = new Set<string>();
  for (const target of targets) {
    for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
      folders.add(dir);
      if (dir === path.dirname(dir)) break;
    }
  }
  for (const dir of folders) {
    const info = await stat(dir);
    const reachable =
      info.uid === runAs.uid || info.mode & 0o001 || (info.gid === runAs.gid && info.mode & 0o010);
    if (reachable) continue;
    await chmod(dir, info.mode | 0o001);
    notice(`Allowed the '${who}' user to pass through ${dir} (chmod o+x).`);
  }
}
