import { execFile } from "node:child_process";
import { chmod, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

// PostgreSQL refuses to run as root. When Hangar runs as root (containers, CI machines), the
// embedded server runs as the system user `postgres` (created when missing), which must be able
// to reach the binaries and the data folder.

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

/** The user the server runs as: none (this process's own) unless this process is root. */
export async function postgresRunAs(notice: (message: string) => void): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await ids("postgres");
  if (existing) return existing;
  notice("Creating the system user 'postgres' to run the embedded PostgreSQL (it refuses root).");
  await run("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
  const created = await ids("postgres");
  if (!created) throw new Error("Could not create the system user 'postgres'.");
  return created;
}

/**
 * Lets `runAs` traverse every folder above `targets` (a folder made by `mktemp -d` is 0700):
 * adds only the others-execute bit, and says so, where it is missing.
 */
export async function grantTraverse(
  targets: string[],
  runAs: RunAs,
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
    notice(
      `Allowed the 'postgres' user to pass through ${dir} (chmod o+x) to reach the embedded database.`,
    );
  }
}
