import { existsSync, lstatSync } from "node:fs";
import path from "node:path";

// The sandbox's shape, as bubblewrap arguments: new PID, network, IPC, UTS and cgroup
// namespaces and a new session; a root of its own holding only what buildah needs read-only
// (/usr, a few files of /etc, the forwarder) and the build's own folders writable. Nothing of
// the host's root is bound whole, so a step that leaves its chroot finds this root and no more:
// no other workspace's storage, no other build's folder, no Hangar files, no host sockets.

/** Files of /etc that buildah and TLS need; nothing else of the host's /etc is seen. */
const ETC = [
  "/etc/containers",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/localtime",
];

/** Where the forwarder script sits inside the sandbox. */
export const FORWARDER_PATH = "/hangar/forwarder.mjs";
/** Where the worker's Unix sockets sit inside the sandbox. */
export const SOCKETS_DIR = "/hangar/sockets";

export interface SandboxLayout {
  /** Folders bound read-write at the same path (workspace storage, the build's folder). */
  writable: string[];
  /** Folders bound read-only at the same path (the build context). */
  readOnly: string[];
  /** The folder of the worker's sockets for this sandbox (bound at SOCKETS_DIR). */
  socketsDir: string;
  /** The forwarder script on the host. */
  forwarder: string;
  /** The Node.js binary the forwarder runs with. */
  node: string;
  cwd: string;
  /** Variables set inside, over what the sandbox inherits. */
  env: Record<string, string>;
}

/** /bin, /lib...: the same link as the host's (merged /usr), else bound read-only. */
function topLevel(name: string): string[] {
  const host = `/${name}`;
  const info = existsSync(host) ? lstatSync(host) : null;
  if (!info) return [];
  if (info.isSymbolicLink()) return ["--symlink", `usr/${name}`, host];
  return ["--ro-bind", host, host];
}

export function bwrapArgs(layout: SandboxLayout): string[] {
  const nodeRoot = layout.node.startsWith("/usr/")
    ? []
    : [
        "--ro-bind",
        path.dirname(path.dirname(layout.node)),
        path.dirname(path.dirname(layout.node)),
      ];
  return [
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--hostname",
    "hangar-build",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/usr",
    "/usr",
    ...["bin", "sbin", "lib", "lib64", "lib32", "libx32"].flatMap(topLevel),
    ...ETC.flatMap((file) => ["--ro-bind-try", file, file]),
    ...nodeRoot,
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    // buildah's chroot isolation binds /sys into each step's root: an empty one here.
    "--dir",
    "/sys",
    "--tmpfs",
    "/tmp",
    "--dir",
    "/run",
    "--dir",
    "/var/tmp",
    "--ro-bind",
    layout.forwarder,
    FORWARDER_PATH,
    "--bind",
    layout.socketsDir,
    SOCKETS_DIR,
    ...layout.readOnly.flatMap((dir) => ["--ro-bind", dir, dir]),
    ...layout.writable.flatMap((dir) => ["--bind", dir, dir]),
    ...Object.entries(layout.env).flatMap(([name, value]) => ["--setenv", name, value]),
    "--chdir",
    layout.cwd,
  ];
}
