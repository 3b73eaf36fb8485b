import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { DeploymentSource } from "@/generated/prisma/enums";
import type { ImageReference } from "@/lib/image-reference";
import { StepFailure, type BuilderDriver, type BuildIo, type BuildPlan } from "../drivers/types";
import type { Unpacked } from "./archive";
import { writeFileInRoot } from "./contained-path";
import { DOCKERIGNORE, generateDockerfile } from "./dockerfile";
import { loadGraphConfig } from "./graph-config";
import { trackedPackageLines } from "./tracked-packages";
import type { ContextSource, ImageBuilder } from "./types";

// Builds a project (an upload, a repository): its source fills a fresh build folder, the graph
// config is checked against it, the generated Dockerfile is written beside it, and the image
// builder turns the folder into an image in Hangar's registry. Without an image builder the
// image is named, not built, and the build log says so (dry run). The folder goes at the end.

const DRY_RUN_REPOSITORY = "hangar.local/builds";
const DOCKERFILE = "Dockerfile.hangar";

export interface ProjectBuilderOptions {
  /** Build folders live here, one per build, removed when the build ends. */
  contextsDir: string;
  /** Where each source's files come from; other sources go to the fallback (no build). */
  sources: Partial<Record<DeploymentSource, ContextSource>>;
  /** Null: a dry run. */
  images: ImageBuilder | null;
  /** The operator's FROM for every build (HANGAR_BUILD_BASE_IMAGE). */
  baseImage?: ImageReference | null;
}

/** A build folder older than this was left by a worker that died mid-build. */
const STALE_CONTEXT_MS = 24 * 60 * 60 * 1000;

async function removeStaleContexts(contextsDir: string): Promise<void> {
  const before = Date.now() - STALE_CONTEXT_MS;
  for (const name of await readdir(contextsDir).catch(() => [])) {
    const folder = path.join(contextsDir, name);
    const info = await stat(folder).catch(() => null);
    if (info && info.mtimeMs < before) await rm(folder, { recursive: true, force: true });
  }
}

/** A failure whose log keeps what the build did before it (line by line). */
function failWith(lines: string[], error: unknown): never {
  if (!(error instanceof StepFailure)) throw error;
  throw new StepFailure(error.message, [...lines, ...error.lines]);
}

/** One hash over every file's path and bytes and every link's target, in path order. */
async function contextDigest(root: string, unpacked: Unpacked): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [...unpacked.files].sort()) {
    hash.update(`${file}\0`);
    const handle = await open(path.join(root, file), constants.O_RDONLY | constants.O_NOFOLLOW);
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
    hash.update("\0");
  }
  for (const [link, target] of Object.entries(unpacked.links).sort(([a], [b]) => (a < b ? -1 : 1)))
    hash.update(`${link}\0->${target}\0`);
  return hash.digest("hex");
}

export function projectBuilder(
  fallback: BuilderDriver,
  options: ProjectBuilderOptions,
): BuilderDriver {
  return {
    imageBuilder: options.images?.name ?? null,
    async build(plan: BuildPlan, io: BuildIo) {
      const source = options.sources[plan.source];
      if (!source) return fallback.build(plan, io);
      const lines: string[] = [];
      await mkdir(options.contextsDir, { recursive: true, mode: 0o700 });
      await removeStaleContexts(options.contextsDir);
      const context = await mkdtemp(path.join(options.contextsDir, "build-"));
      try {
        const fetched = await source.fetch(plan, context, io);
        lines.push(...fetched.lines);
        const digest = await contextDigest(context, fetched.unpacked);
        for (const skipped of fetched.unpacked.skipped)
          lines.push(
            `Left ${skipped} out of the build context (its values come from the deployment's secrets)`,
          );
        const config = await loadGraphConfig(
          context,
          plan.graph_config_path ?? "langgraph.json",
          plan.source === "codehost" ? `the repository at ${plan.repo_commit_sha}` : undefined,
        );
        lines.push(
          `Graph config ${config.path}: ${config.runtime} ${config.version}, graphs ${Object.keys(config.graphs).join(", ")}`,
        );
        lines.push(
          ...(await trackedPackageLines(context, config.dir, plan.tracked_packages ?? [])),
        );
        const dockerfile = generateDockerfile(
          config,
          { install: plan.install_command, build: plan.build_command },
          options.baseImage,
        );
        await writeFileInRoot(context, DOCKERFILE, dockerfile);
        await writeFileInRoot(context, ".dockerignore", `${DOCKERIGNORE.join("\n")}\n`);
        lines.push(
          "Generated Dockerfile:",
          ...dockerfile
            .trimEnd()
            .split("\n")
            .map((l) => `  ${l}`),
          `Build context ready (sha256:${digest})`,
        );
        const record = {
          dockerfile,
          context: {
            files: fetched.unpacked.files.length,
            bytes: fetched.unpacked.bytes,
            sha256: digest,
          },
          graph_config: {
            path: config.path,
            runtime: config.runtime,
            version: config.version,
            graphs: config.graphs,
          },
        };
        if (!options.images || !io.target) {
          const imageRef = `${DRY_RUN_REPOSITORY}:${createHash("sha256").update(`${digest}\n${dockerfile}`).digest("hex")}`;
          lines.push(
            options.images
              ? `No container registry configured (HANGAR_REGISTRY_URL): ${imageRef} was named, not built (dry run)`
              : `No image builder configured (HANGAR_BUILDER): ${imageRef} was named, not built (dry run)`,
          );
          return { imageRef, imageDigest: null, lines, record };
        }
        // What the build printed so far reaches the log before the builder's own output.
        io.log(lines.splice(0));
        const { target } = io;
        const built = await options.images.build(
          { contextDir: context, dockerfile: DOCKERFILE, target },
          io,
        );
        lines.push(`Pushed image digest ${built.digest}`);
        return {
          imageRef: `${target.registry}/${target.repository}@${built.digest}`,
          imageDigest: built.digest,
          lines,
          record,
        };
      } catch (error) {
        failWith(lines, error);
      } finally {
        await rm(context, { recursive: true, force: true });
      }
    },
    async release(plan) {
      await options.sources[plan.source]?.release?.(plan);
      await fallback.release?.(plan);
    },
  };
}
