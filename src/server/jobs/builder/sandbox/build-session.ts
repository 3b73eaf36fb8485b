import { randomUUID } from "node:crypto";
import { chown, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "@/lib/quantity";
import type { RunAs } from "@/lib/system-users";
import { isLoopbackHost } from "@/server/outbound/address-policy";
import { allowingAlso, type BuildEgress } from "@/server/outbound/build-egress";
import { StepFailure, type BuildIo, type ImageTarget } from "../../drivers/types";
import type { BuildBounds } from "../bounds";
import { BuildahOutput } from "../images/buildah-output";
import { createBuildCgroup, sweepStaleCgroups, type BuildCgroup } from "./cgroup";
import { watchDisk, type DiskWatch } from "./disk-watch";
import { runInSandbox } from "./sandbox";

// One build on the worker's machine: its folder, its cgroup and the watch of its bounds, and
// the two kinds of command it runs in its sandbox. A `trusted` command (a pull or a push) has
// the registry and the build's credentials in reach; a `steps` command (bud: the project's own
// code) has neither, only the egress proxy. Everything ends with `close()`.

/** What buildah needs from the worker's environment; the worker's secrets stay out of it. */
const PASSED_ENV = ["PATH", "LANG", "LC_ALL", "XDG_RUNTIME_DIR"];
const REDACTED = "********";
/** A fork bomb holds the process limit; a build that holds it this long is stopped. */
const PROCESS_LIMIT_MS = 5000;
/**
 * A build whose unreclaimable memory stays within this of HANGAR_BUILD_MEMORY for
 * PROCESS_LIMIT_MS is out of memory: a kernel that thrashes at the limit instead of killing
 * (seen under gVisor, with the build's tmpfs files counted in) would hold it there until the
 * build's time ran out, and say so instead of the cause.
 */
const memoryMargin = (limit: number) => Math.max(8 * 1024 * 1024, limit * 0.02);

export interface SessionOptions {
  buildah: string;
  /** The builder's folder (HANGAR_DATA_DIR/buildah): runs/ holds each build's folder. */
  root: string;
  /** The workspace's store: storage and run state of its layers. */
  store: { dir: string; storage: string; run: string };
  runAs?: RunAs;
  bounds: BuildBounds;
  egress: BuildEgress;
  cgroupParent?: string;
  target: ImageTarget;
  /** host:port a pull or a push must reach besides the egress rule (the registry, its realm). */
  registryEndpoints: string[];
  contextDir: string;
  io: BuildIo;
}

export interface CommandResult {
  ok: boolean;
  /** The step that ran last, its last lines and buildah's error (for a failure's message). */
  lines: string[];
}

export interface BuildSession {
  /** The build's private folder for secrets (bound only into trusted commands). */
  secrets: string;
  /** Where commands write what the worker reads back (image id, digest). */
  out: string;
  /** buildah's --registries-conf for Hangar's plain-HTTP registry, when it is one. */
  registriesConf: string[];
  trusted(args: string[]): Promise<CommandResult>;
  steps(args: string[]): Promise<CommandResult>;
  /** A failed step's message, naming the bound the kernel held it to, if one did. */
  explain(failure: StepFailure, lines: string[]): Promise<StepFailure>;
  close(): Promise<void>;
}

export async function startBuildSession(options: SessionOptions): Promise<BuildSession> {
  const { runAs, io, target, bounds } = options;
  const owned = async (file: string) => {
    if (runAs) await chown(file, runAs.uid, runAs.gid);
  };
  const runs = path.join(options.root, "runs");
  await mkdir(runs, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(path.join(runs, "build-"));
  const [secrets, tmp, home, out] = ["secrets", "tmp", "home", "out"].map((n) => path.join(dir, n));
  for (const folder of [dir, secrets!, tmp!, home!, out!]) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await owned(folder);
  }
  let cgroup: BuildCgroup | null = null;
  let disk: DiskWatch | null = null;
  let watch: NodeJS.Timeout | null = null;
  const close = async () => {
    if (watch) clearInterval(watch);
    await disk?.stop();
    await cgroup?.destroy();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // A group a killed worker left that its successor could not end at start (a process still
    // exiting then) goes before the next build rather than staying until the next restart.
    await sweepStaleCgroups(options.cgroupParent).catch(() => 0);
    cgroup = await createBuildCgroup(randomUUID(), bounds, options.cgroupParent).catch(
      (error: unknown) => {
        throw new StepFailure((error as Error).message);
      },
    );
    const stopped = new AbortController();
    let boundMessage: string | null = null;
    const stop = (message: string) => {
      if (boundMessage) return;
      boundMessage = message;
      io.log([message]);
      stopped.abort();
    };
    const signal = AbortSignal.any([io.signal, stopped.signal]);
    disk = await watchDisk({
      buildDir: dir,
      layerDirs: [path.join(options.store.storage, "vfs", "dir")],
      limitBytes: bounds.diskBytes,
      onExceeded: (bytes) =>
        stop(
          `The build wrote ${formatBytes(bytes)}, more than HANGAR_BUILD_DISK (${bounds.disk}), and was stopped.`,
        ),
    });
    // How long the build has held each bound, stopped at PROCESS_LIMIT_MS.
    const held = { processes: null as number | null, memory: null as number | null };
    const holds = (bound: keyof typeof held, atLimit: boolean) => {
      held[bound] = atLimit ? (held[bound] ?? Date.now()) : null;
      return held[bound] !== null && Date.now() - held[bound] >= PROCESS_LIMIT_MS;
    };
    const group = cgroup;
    watch = setInterval(() => {
      void group.events().then(
        ({ processes, memoryHeld }) => {
          if (holds("processes", processes >= bounds.processes - 1))
            stop(
              `The build held HANGAR_BUILD_PROCESSES (${bounds.processes} processes) for ${PROCESS_LIMIT_MS / 1000} s and was stopped.`,
            );
          if (holds("memory", memoryHeld >= bounds.memoryBytes - memoryMargin(bounds.memoryBytes)))
            stop(
              `The build ran out of memory (HANGAR_BUILD_MEMORY=${bounds.memory}): it held the limit for ${PROCESS_LIMIT_MS / 1000} s and was stopped.`,
            );
        },
        () => undefined,
      );
    }, 1000);

    const registriesConf: string[] = [];
    if (target.insecure) {
      const file = path.join(home!, "registries.conf");
      await writeFile(
        file,
        `[[registry]]\nlocation = ${JSON.stringify(target.registry)}\ninsecure = true\n`,
      );
      await owned(file);
      registriesConf.push("--registries-conf", file);
    }
    const relays = options.registryEndpoints
      .map(splitHostPort)
      .filter(([host]) => isLoopbackHost(host))
      .map(([host, port]) => ({ host, port }));
    const env: Record<string, string> = Object.fromEntries(
      PASSED_ENV.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
    );
    env.HOME = home!;
    if (runAs) delete env.XDG_RUNTIME_DIR;
    const storage = [
      "--storage-driver",
      "vfs",
      "--root",
      options.store.storage,
      "--runroot",
      options.store.run,
    ];
    const secret = target.credentials.password;

    const exec = async (args: string[], trusted: boolean): Promise<CommandResult> => {
      const output = new BuildahOutput();
      const result = await runInSandbox({
        buildah: options.buildah,
        storage,
        args,
        writable: [options.store.dir, tmp!, home!, out!, ...(trusted ? [secrets!] : [])],
        readOnly: trusted ? [] : [options.contextDir],
        buildDir: dir,
        cwd: trusted ? home! : options.contextDir,
        env,
        egress: trusted ? allowingAlso(options.egress, options.registryEndpoints) : options.egress,
        relays: trusted ? relays : [],
        cgroup: group,
        runAs,
        fileSizeBytes: bounds.diskBytes,
        signal,
        onLine(raw) {
          const line = raw.split(secret).join(REDACTED);
          output.add(line);
          io.log([line]);
        },
        onRefused: (message) => io.log([message]),
      });
      // One file past the bound also fills the disk past it: the watch may stop the build just
      // after RLIMIT_FSIZE refused the write. Say the cause that came first and is more exact.
      if (boundMessage && output.lines().some((line) => FILE_TOO_LARGE.test(line)))
        throw new StepFailure(fileTooLarge(bounds.disk));
      if (boundMessage) throw new StepFailure(boundMessage);
      if (result.aborted) throw new StepFailure("The build was stopped.");
      return { ok: result.code === 0, lines: output.lines() };
    };

    return {
      secrets: secrets!,
      out: out!,
      registriesConf,
      trusted: (args) => exec(args, true),
      steps: (args) => exec(args, false),
      async explain(failure, lines) {
        const { oomKills, forksRefused } = await group.events();
        const because = (reason: string) =>
          new StepFailure(`${reason}: ${failure.message}`, failure.lines);
        if (oomKills > 0)
          return because(`The build ran out of memory (HANGAR_BUILD_MEMORY=${bounds.memory})`);
        if (lines.some((line) => FILE_TOO_LARGE.test(line)))
          return because(fileTooLarge(bounds.disk));
        if (forksRefused > 0)
          return because(
            `The build reached HANGAR_BUILD_PROCESSES (${bounds.processes} processes) and a step could not start more`,
          );
        return failure;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** SIGXFSZ: a process wrote past RLIMIT_FSIZE (buildah says "file size limit exceeded"). */
const FILE_TOO_LARGE = /file size limit exceeded|exit status 153/i;
const fileTooLarge = (disk: string) =>
  `A step wrote a file larger than HANGAR_BUILD_DISK (${disk})`;

function splitHostPort(registry: string): [string, number] {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(registry);
  return [match?.[1]?.replace(/^\[|\]$/g, "") ?? registry, Number(match?.[2] ?? 443)];
}
