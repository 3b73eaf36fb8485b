import { chown, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { grantTraverse, type RunAs } from "@/lib/system-users";
import type { BuildEgress } from "@/server/outbound/build-egress";
import { registryConfig } from "@/server/registry/config";
import { registryRealm } from "@/server/registry/realm";
import { StepFailure, type BuildIo } from "../../drivers/types";
import type { BuildBounds } from "../bounds";
import type { ImageBuild, ImageBuilder } from "../types";
import { startBuildSession } from "../sandbox/build-session";
import { imagesOf } from "../sandbox/dockerfile-images";
import { missingTools } from "../sandbox/tools";
import { chownTree, prepareBuilderRoot, workspaceStore } from "./build-user";
import { buildFailure, pullFailure, pushFailure } from "./buildah-output";

// The local builder: Debian's buildah on the worker's machine, every build in a sandbox of its
// own (../sandbox): a cgroup holding it to its CPU, memory and process bounds, new namespaces
// and a root of its own, no network but an egress proxy applying HANGAR_BUILD_EGRESS. A build
// is three sandboxed commands: the images its Dockerfile reads are pulled through the registry
// with the build's own token (never taken from another build's copy), its steps run with no
// credential and no registry in reach (`bud --pull=never`), then the image is pushed. Layers
// are stored per workspace (HANGAR_DATA_DIR/buildah/workspaces/<id>), so no workspace's build
// reads or writes another's. When Hangar runs as root, buildah runs rootless as `runAs`
// (build-user.ts), never as root.

export interface BuildahOptions {
  /** Workspace stores and each build's private folder live here (HANGAR_DATA_DIR/buildah). */
  root: string;
  /** The command (tests name a missing one). */
  command?: string;
  /** The user buildah runs as (the worker is root); unset: the worker's own user. */
  runAs?: RunAs;
  bounds: BuildBounds;
  egress: BuildEgress;
  /** A delegated cgroup v2 folder for build groups (HANGAR_BUILD_CGROUP). */
  cgroupParent?: string;
  notice?: (message: string) => void;
}

export function buildahBuilder(options: BuildahOptions): ImageBuilder {
  const command = options.command ?? "buildah";
  const { runAs } = options;
  const notice = options.notice ?? (() => undefined);
  const missing = missingTools(command);
  const prepared = missing ? Promise.resolve() : prepareBuilderRoot(options.root, runAs, notice);

  return {
    name: "buildah",
    async build({ contextDir, dockerfile, target }: ImageBuild, io: BuildIo) {
      if (missing) throw new StepFailure(missing);
      await prepared;
      if (runAs) {
        await chownTree(contextDir, runAs);
        await grantTraverse([contextDir], runAs, "hangar-build", notice);
      }
      const images = imagesOf(await readFile(path.join(contextDir, dockerfile), "utf8"));
      const config = registryConfig();
      const realm = config ? await registryRealm(config) : null;
      const session = await startBuildSession({
        buildah: command,
        root: options.root,
        store: await workspaceStore(options.root, target.workspace, runAs),
        runAs,
        bounds: options.bounds,
        egress: options.egress,
        cgroupParent: options.cgroupParent,
        target,
        registryEndpoints: [
          target.registry,
          ...(realm
            ? [`${realm.hostname}:${realm.port || (realm.protocol === "https:" ? 443 : 80)}`]
            : []),
        ],
        contextDir,
        io,
      });
      try {
        const { username, password } = target.credentials;
        const authfile = path.join(session.secrets, "auth.json");
        const auth = Buffer.from(`${username}:${password}`).toString("base64");
        await writeFile(authfile, JSON.stringify({ auths: { [target.registry]: { auth } } }), {
          mode: 0o600,
        });
        if (runAs) await chown(authfile, runAs.uid, runAs.gid);

        for (const image of images) {
          const pulled = await session.trusted([
            ...session.registriesConf,
            "pull",
            "--policy",
            "always",
            "--authfile",
            authfile,
            image,
          ]);
          if (!pulled.ok) throw pullFailure(image, pulled.lines);
        }

        const imageIdFile = path.join(session.out, "image-id");
        const built = await session.steps([
          ...session.registriesConf,
          "bud",
          "--isolation",
          "chroot",
          "--layers",
          "--force-rm",
          "--pull=never",
          "--iidfile",
          imageIdFile,
          "-f",
          dockerfile,
          ".",
        ]);
        if (!built.ok) throw await session.explain(buildFailure(built.lines), built.lines);
        const imageId = (await readFile(imageIdFile, "utf8")).trim();

        const ref = `${target.registry}/${target.repository}:${target.tag}`;
        io.log([`Pushing ${ref}`]);
        const digestFile = path.join(session.out, "digest");
        const pushed = await session.trusted([
          "push",
          "--authfile",
          authfile,
          "--digestfile",
          digestFile,
          ...(target.insecure ? ["--tls-verify=false"] : []),
          imageId,
          `docker://${ref}`,
        ]);
        if (!pushed.ok) throw pushFailure(ref, pushed.lines);
        const digest = (await readFile(digestFile, "utf8")).trim();
        if (!/^sha256:[a-f0-9]{64}$/.test(digest))
          throw new StepFailure(`Pushing ${ref}: buildah reported no digest ("${digest}").`);
        return { digest };
      } finally {
        await session.close();
      }
    },
  };
}
