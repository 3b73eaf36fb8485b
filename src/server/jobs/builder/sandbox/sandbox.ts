import { spawn } from "node:child_process";
import { once } from "node:events";
import { chown, mkdir, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunAs } from "@/lib/system-users";
import type { BuildEgress } from "@/server/outbound/build-egress";
import { readLogLines } from "../images/line-reader";
import { bwrapArgs, FORWARDER_PATH, SOCKETS_DIR } from "./bwrap-args";
import type { BuildCgroup } from "./cgroup";
import { startEgressProxy } from "./egress-proxy";

// One buildah command in the build's sandbox. The chain, each link exec'ing the next:
//   sh (joins the build's cgroup) → setpriv (the build user; killed if the worker dies)
//   → prlimit (largest file, no core dumps) → buildah unshare (a user namespace mapping the
//   build user's subordinate ids) → bwrap (new PID/network/IPC/UTS/mount namespaces, a root of
//   its own) → the forwarder (loopback ports to the worker's sockets) → buildah.
// The network namespace holds only loopback: the egress proxy (and, for a pull or a push, a
// registry on the host's loopback) is reached through sockets the worker serves outside.

/** A graceful stop (buildah tidies its working container) may take this long. */
const STOP_GRACE_MS = 5000;
const PROXY_PORT = 3128;

export const FORWARDER = fileURLToPath(new URL("./forwarder.mjs", import.meta.url));

export interface SandboxCommand {
  /** The buildah command (a path or a name on PATH, inside the sandbox too). */
  buildah: string;
  /** buildah's storage options (this workspace's storage). */
  storage: string[];
  /** buildah's command and arguments. */
  args: string[];
  /** Folders the command may write, bound at the same path. */
  writable: string[];
  /** Folders it may read, bound at the same path. */
  readOnly: string[];
  /** The build's private folder: its sockets go in a folder of their own under it. */
  buildDir: string;
  cwd: string;
  /** The environment outside (PATH, HOME...): nothing of the worker's secrets. */
  env: Record<string, string>;
  /** Where the command may connect through the egress proxy. */
  egress: BuildEgress;
  /** Endpoints on the host's loopback (a registry, its token realm), relayed in at their port. */
  relays: { host: string; port: number }[];
  cgroup: BuildCgroup;
  runAs?: RunAs;
  /** RLIMIT_FSIZE: the largest file any process of the build may write. */
  fileSizeBytes: number;
  signal: AbortSignal;
  onLine(line: string): void;
  /** A destination the egress proxy refused. */
  onRefused(message: string): void;
}

export interface SandboxResult {
  code: number | null;
  aborted: boolean;
}

/** Serves `socketPath`, piping each connection to host:port (a registry on loopback). */
async function startRelay(socketPath: string, host: string, port: number) {
  const server = net.createServer((client) => {
    const upstream = net.connect({ host, port });
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.listen(socketPath);
  await once(server, "listening");
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Joins the cgroups named in $1 (colon-separated), then runs the rest. */
const JOIN_AND_EXEC =
  'IFS=:; for f in $1; do echo $$ > "$f" || exit 125; done; unset IFS; shift; exec "$@"';

export async function runInSandbox(command: SandboxCommand): Promise<SandboxResult> {
  if (command.signal.aborted) return { code: null, aborted: true };
  const sockets = await makeSocketsDir(command.buildDir, command.runAs);
  const owned = async (file: string) => {
    if (command.runAs) await chown(file, command.runAs.uid, command.runAs.gid);
  };
  const proxySocket = path.join(sockets, "egress.sock");
  const proxy = await startEgressProxy({
    socketPath: proxySocket,
    egress: command.egress,
    onRefused: command.onRefused,
  });
  await owned(proxySocket);
  const taken = new Set(command.relays.map((relay) => relay.port));
  let proxyPort = PROXY_PORT;
  while (taken.has(proxyPort)) proxyPort++;
  const routes = [`127.0.0.1:${proxyPort}=${SOCKETS_DIR}/egress.sock`];
  const relays: Awaited<ReturnType<typeof startRelay>>[] = [];
  try {
    for (const [index, { host, port }] of command.relays.entries()) {
      const relaySocket = path.join(sockets, `relay-${index}.sock`);
      relays.push(await startRelay(relaySocket, host, port));
      await owned(relaySocket);
      routes.push(`127.0.0.1:${port}=${SOCKETS_DIR}/relay-${index}.sock`);
    }
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const inside = bwrapArgs({
      writable: command.writable,
      readOnly: command.readOnly,
      socketsDir: sockets,
      forwarder: FORWARDER,
      node: process.execPath,
      cwd: command.cwd,
      env: {
        HTTP_PROXY: proxyUrl,
        HTTPS_PROXY: proxyUrl,
        http_proxy: proxyUrl,
        https_proxy: proxyUrl,
        TMPDIR: path.join(command.buildDir, "tmp"),
      },
    });
    const user = command.runAs
      ? [
          "setpriv",
          `--reuid=${command.runAs.uid}`,
          `--regid=${command.runAs.gid}`,
          "--clear-groups",
          "--pdeathsig=KILL",
          "--",
        ]
      : [];
    const chain = [
      ...user,
      "prlimit",
      `--fsize=${command.fileSizeBytes}`,
      "--core=0",
      "--",
      command.buildah,
      ...command.storage,
      "unshare",
      "bwrap",
      ...inside,
      "--",
      process.execPath,
      FORWARDER_PATH,
      ...routes,
      "--",
      command.buildah,
      ...command.storage,
      ...command.args,
    ];
    return await spawnJoined(command, chain);
  } finally {
    await Promise.all(relays.map((relay) => relay.close()));
    await proxy.close();
    await rm(sockets, { recursive: true, force: true });
  }
}

async function makeSocketsDir(buildDir: string, runAs?: RunAs): Promise<string> {
  const dir = path.join(buildDir, `sockets-${Date.now().toString(36)}`);
  await mkdir(dir, { mode: 0o700 });
  if (runAs) await chown(dir, runAs.uid, runAs.gid);
  return dir;
}

function spawnJoined(command: SandboxCommand, chain: string[]): Promise<SandboxResult> {
  return new Promise<SandboxResult>((resolve, reject) => {
    const child = spawn(
      "/bin/sh",
      ["-c", JOIN_AND_EXEC, "sh", command.cgroup.procsFiles.join(":"), ...chain],
      {
        cwd: command.cwd,
        env: command.env as NodeJS.ProcessEnv,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let aborted = false;
    let killer: NodeJS.Timeout | null = null;
    const onAbort = () => {
      aborted = true;
      // The forwarder reads EOF and stops buildah gracefully; then the whole cgroup goes.
      child.stdin?.end();
      killer = setTimeout(() => void command.cgroup.kill(), STOP_GRACE_MS);
    };
    command.signal.addEventListener("abort", onAbort, { once: true });
    child.stdin?.on("error", () => undefined);
    // Lines as the build log keeps them: harmless, cut, never an unbounded buffer.
    for (const stream of [child.stdout!, child.stderr!]) readLogLines(stream, command.onLine);
    child.once("error", (error) => {
      command.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.once("close", async (code) => {
      command.signal.removeEventListener("abort", onAbort);
      if (killer) clearTimeout(killer);
      // Whatever the command left behind in the build's cgroup ends with it.
      await command.cgroup.kill().catch(() => undefined);
      resolve({ code, aborted });
    });
  });
}
