import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { grantTraverse, type RunAs } from "@/lib/system-users";
import { StepFailure, type BuildIo } from "../../drivers/types";
import type { ImageBuild, ImageBuilder } from "../types";
import { chownTree, prepareBuilderRoot } from "./build-user";
import { BuildahOutput, buildFailure, pushFailure } from "./buildah-output";
import { CommandNotFound, runInGroup } from "./process-group";

// The local builder: Debian's buildah on the worker's machine. `bud` with chroot isolation and
// vfs storage (works as root without a daemon or overlay support), its storage under
// HANGAR_DATA_DIR/buildah so the layer cache is kept between builds, then a push of the built
// image to Hangar's registry, whose digest (--digestfile) is what the revision deploys.
// Credentials go in an auth file only the build's user can read, never on a command line. When
// Hangar runs as root, buildah runs rootless as `runAs` (build-user.ts), never as root.

export interface BuildahOptions {
  /** Storage, run state and each build's private folder live here (HANGAR_DATA_DIR/buildah). */
  root: string;
  /** The command (tests name a missing one). */
  command?: string;
  /** The user buildah runs as (the worker is root); unset: the worker's own user. */
  runAs?: RunAs;
  notice?: (message: string) => void;
}

/** What buildah needs from the worker's environment; the worker's secrets stay out of it. */
const PASSED_ENV = ["PATH", "HOME", "USER", "TMPDIR", "XDG_RUNTIME_DIR", "LANG", "LC_ALL"];

const REDACTED = "********";

export function buildahBuilder(options: BuildahOptions): ImageBuilder {
  const command = options.command ?? "buildah";
  const storage = [
    "--storage-driver",
    "vfs",
    "--root",
    path.join(options.root, "storage"),
    "--runroot",
    path.join(options.root, "run"),
  ];
  const { runAs } = options;
  const env: Record<string, string> = Object.fromEntries(
    PASSED_ENV.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  if (runAs) {
    // The build user's own home (its containers configuration), not the worker's.
    env.HOME = path.join(options.root, "home");
    delete env.USER;
    delete env.XDG_RUNTIME_DIR;
  }
  const prepared = runAs
    ? prepareBuilderRoot(options.root, runAs, options.notice ?? (() => undefined))
    : Promise.resolve();

  /** Runs buildah, each line to the build log (the token masked, should it ever appear). */
  async function buildah(args: string[], io: BuildIo, secret: string, cwd?: string) {
    const output = new BuildahOutput();
    const onLine = (raw: string) => {
      const line = raw.split(secret).join(REDACTED);
      output.add(line);
      io.log([line]);
    };
    try {
      const run = await runInGroup(command, [...storage, ...args], {
        env,
        cwd,
        runAs,
        signal: io.signal,
        onLine,
      });
      if (run.aborted) throw new StepFailure("The build was stopped.");
      return { ok: run.code === 0, lines: output.lines() };
    } catch (error) {
      if (error instanceof CommandNotFound)
        throw new StepFailure(
          `The ${command} command was not found on this worker (HANGAR_BUILDER=buildah): install it (Debian: apt-get install buildah), or choose another builder (README, Builds).`,
        );
      throw error;
    }
  }

  return {
    name: "buildah",
    async build({ contextDir, dockerfile, target }: ImageBuild, io: BuildIo) {
      await prepared;
      const runs = path.join(options.root, "runs");
      await mkdir(runs, { recursive: true, mode: 0o700 });
      // The build's own folder, outside the context: nothing in it can enter the image.
      const work = await mkdtemp(path.join(runs, "build-"));
      try {
        if (runAs) {
          await chown(work, runAs.uid, runAs.gid);
          await chownTree(contextDir, runAs);
          await grantTraverse([contextDir], runAs, "hangar-build", options.notice ?? (() => {}));
        }
        const { username, password } = target.credentials;
        const authfile = path.join(work, "auth.json");
        const auth = Buffer.from(`${username}:${password}`).toString("base64");
        await writeFile(authfile, JSON.stringify({ auths: { [target.registry]: { auth } } }), {
          mode: 0o600,
        });
        if (runAs) await chown(authfile, runAs.uid, runAs.gid);
        // Plain HTTP for Hangar's registry only (a base image it holds); others keep TLS.
        const registriesConf = path.join(work, "registries.conf");
        if (target.insecure)
          await writeFile(
            registriesConf,
            `[[registry]]\nlocation = ${JSON.stringify(target.registry)}\ninsecure = true\n`,
          );
        const imageIdFile = path.join(work, "image-id");
        const built = await buildah(
          [
            ...(target.insecure ? ["--registries-conf", registriesConf] : []),
            "bud",
            "--isolation",
            "chroot",
            "--layers",
            "--force-rm",
            "--authfile",
            authfile,
            "--iidfile",
            imageIdFile,
            "-f",
            dockerfile,
            ".",
          ],
          io,
          password,
          contextDir,
        );
        if (!built.ok) throw buildFailure(built.lines);
        const imageId = (await readFile(imageIdFile, "utf8")).trim();

        const ref = `${target.registry}/${target.repository}:${target.tag}`;
        io.log([`Pushing ${ref}`]);
        const digestFile = path.join(work, "digest");
        const pushed = await buildah(
          [
            "push",
            "--authfile",
            authfile,
            "--digestfile",
            digestFile,
            ...(target.insecure ? ["--tls-verify=false"] : []),
            imageId,
            `docker://${ref}`,
          ],
          io,
          password,
        );
        if (!pushed.ok) throw pushFailure(ref, pushed.lines);
        const digest = (await readFile(digestFile, "utf8")).trim();
        if (!/^sha256:[a-f0-9]{64}$/.test(digest))
          throw new StepFailure(`Pushing ${ref}: buildah reported no digest ("${digest}").`);
        return { digest };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}
