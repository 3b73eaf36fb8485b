import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureDebianPackages } from "./debian";

// A base image for real builds in tests, made here (nothing can be pulled from the internet):
// FROM scratch with Debian's static busybox as /bin/sh, and stand-ins for what the generated
// Dockerfile calls (`uv`, `npm`, /api/constraints.txt) that say what they were asked to do.

const BUSYBOX = "/bin/busybox";

/** Installs Debian's buildah, its sandbox's tools and static busybox (a FROM scratch image runs it) when missing. */
export function ensureBuildTools(): void {
  ensureDebianPackages([
    { command: "buildah", debianPackage: "buildah" },
    // The build sandbox (src/server/jobs/builder/sandbox): namespaces, user switch, file limit.
    { command: "bwrap", debianPackage: "bubblewrap" },
    { command: "setpriv", debianPackage: "util-linux" },
    { command: "prlimit", debianPackage: "util-linux" },
    { command: "skopeo", debianPackage: "skopeo" },
    {
      command: BUSYBOX,
      debianPackage: "busybox-static",
      installed: () =>
        spawnSync("dpkg-query", ["-W", "-f=${Status}", "busybox-static"], {
          encoding: "utf8",
        }).stdout === "install ok installed",
    },
  ]);
}

const execFileAsync = promisify(execFile);

const standIn = (name: string) =>
  `#!/bin/sh\necho "${name} (stand-in): $*"\nmkdir -p /var/lib/stand-ins && echo "$*" >> /var/lib/stand-ins/${name}\n`;

/** buildah on a store of the base image's own; asynchronous, so the caller's sockets live on. */
async function buildah(root: string, args: string[], cwd?: string): Promise<string> {
  const storage = ["--storage-driver", "vfs", "--root", path.join(root, "storage")];
  const run = await execFileAsync(
    "buildah",
    [...storage, "--runroot", path.join(root, "run"), ...args],
    { cwd, encoding: "utf8", timeout: 120_000 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`buildah ${args[0]} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  return run.stdout;
}

/**
 * Builds the base image and pushes it to `image` (e.g. `127.0.0.1:5000/<workspace>/base:3.11`)
 * over plain HTTP, logged in as `user` with `password` (a push token).
 */
export async function pushBaseImage(
  image: string,
  credentials: { user: string; password: string },
): Promise<void> {
  ensureBuildTools();
  const dir = mkdtempSync(path.join(tmpdir(), "hangar-base-"));
  try {
    const context = path.join(dir, "context");
    mkdirSync(path.join(context, "bin"), { recursive: true });
    mkdirSync(path.join(context, "api"), { recursive: true });
    copyFileSync(BUSYBOX, path.join(context, "bin", "busybox"));
    for (const applet of ["sh", "mkdir", "cat", "ls", "sleep", "echo"])
      symlinkSync("busybox", path.join(context, "bin", applet));
    for (const tool of ["uv", "npm"]) {
      writeFileSync(path.join(context, "bin", tool), standIn(tool));
      chmodSync(path.join(context, "bin", tool), 0o755);
    }
    writeFileSync(path.join(context, "api", "constraints.txt"), "");
    writeFileSync(
      path.join(context, "Dockerfile"),
      "FROM scratch\nCOPY bin /bin\nCOPY api /api\nENV PATH=/bin\n",
    );
    const root = path.join(dir, "buildah");
    await buildah(root, ["bud", "--isolation", "chroot", "-t", "hangar-test-base", "."], context);
    const authfile = path.join(dir, "auth.json");
    const auth = Buffer.from(`${credentials.user}:${credentials.password}`).toString("base64");
    writeFileSync(authfile, JSON.stringify({ auths: { [image.split("/")[0]!]: { auth } } }), {
      mode: 0o600,
    });
    await buildah(root, [
      "push",
      "--tls-verify=false",
      "--authfile",
      authfile,
      "hangar-test-base",
      `docker://${image}`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
