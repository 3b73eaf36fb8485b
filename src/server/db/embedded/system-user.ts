import { ensureSystemUser, type RunAs } from "@/lib/system-users";

// PostgreSQL refuses to run as root. When Hangar runs as root (containers, CI machines), the
// embedded server runs as the system user `postgres` (created when missing), which must be able
// to reach the binaries and the data folder.

export type { RunAs } from "@/lib/system-users";

/** The user the server runs as: none (this process's own) unless this process is root. */
export async function postgresRunAs(notice: (message: string) => void): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  return ensureSystemUser("postgres", "to run the embedded PostgreSQL (it refuses root)", notice);
}
