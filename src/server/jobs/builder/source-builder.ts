import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { UploadTooLarge, uploadOwner, uploadStore, type UploadStore } from "@/server/storage";
import { StepFailure, type BuilderDriver, type BuildPlan } from "../drivers/types";
import { unpackArchive, type ArchiveLimits, type Unpacked } from "./archive";
import { writeFileInRoot } from "./contained-path";
import { DOCKERIGNORE, generateDockerfile } from "./dockerfile";
import { loadGraphConfig } from "./graph-config";
import { trackedPackageLines } from "./tracked-packages";

// Builds from an uploaded archive (internal_source): unpacks it into a build context, checks its
// graph config, writes the generated Dockerfile beside it and records both on the revision.
// Without an image builder configured the image itself is not built: the build says so.

const IMAGE_REPOSITORY = "hangar.local/builds";

export interface SourceBuilderOptions extends ArchiveLimits {
  /** Build contexts live here, one folder per build, removed when the build ends. */
  contextsDir: string;
  store?: UploadStore;
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

export function sourceArchiveBuilder(
  fallback: BuilderDriver,
  options: SourceBuilderOptions,
): BuilderDriver {
  const store = () => options.store ?? uploadStore();
  const ownedUpload = (plan: BuildPlan) =>
    plan.source_tarball_path && uploadOwner(plan.source_tarball_path) === plan.deployment_id
      ? plan.source_tarball_path
      : null;
  return {
    async build(plan) {
      if (plan.source !== "internal_source") return fallback.build(plan);
      const objectPath = ownedUpload(plan);
      if (!objectPath)
        throw new StepFailure(
          `source_tarball_path ${plan.source_tarball_path ?? "(none)"} is not an upload of this deployment: request an upload URL and upload the source first.`,
        );
      if (!(await store().exists(objectPath)))
        throw new StepFailure(`Upload ${objectPath} not found (expired, or already built).`);
      const lines: string[] = [];
      await mkdir(options.contextsDir, { recursive: true, mode: 0o700 });
      await removeStaleContexts(options.contextsDir);
      const context = await mkdtemp(path.join(options.contextsDir, "build-"));
      try {
        const archive = await store()
          .open(objectPath)
          .catch((error: unknown) => {
            if (error instanceof UploadTooLarge)
              throw new StepFailure(`Upload ${objectPath}: ${error.message}`);
            throw error;
          });
        const unpacked = await unpackArchive(archive, context, options);
        const links = Object.keys(unpacked.links).length;
        lines.push(
          `Unpacked ${unpacked.files.length} files${links ? ` and ${links} links` : ""} (${unpacked.bytes} bytes) from ${objectPath}`,
        );
        const digest = await contextDigest(context, unpacked);
        for (const skipped of unpacked.skipped)
          lines.push(
            `Left ${skipped} out of the build context (its values come from the deployment's secrets)`,
          );
        const config = await loadGraphConfig(context, plan.graph_config_path ?? "langgraph.json");
        lines.push(
          `Graph config ${config.path}: ${config.runtime} ${config.version}, graphs ${Object.keys(config.graphs).join(", ")}`,
        );
        lines.push(
          ...(await trackedPackageLines(context, config.dir, plan.tracked_packages ?? [])),
        );
        const dockerfile = generateDockerfile(config, {
          install: plan.install_command,
          build: plan.build_command,
        });
        await writeFileInRoot(context, "Dockerfile.hangar", dockerfile);
        await writeFileInRoot(context, ".dockerignore", `${DOCKERIGNORE.join("\n")}\n`);
        lines.push(
          "Generated Dockerfile:",
          ...dockerfile
            .trimEnd()
            .split("\n")
            .map((l) => `  ${l}`),
        );
        const imageRef = `${IMAGE_REPOSITORY}:${createHash("sha256").update(`${digest}\n${dockerfile}`).digest("hex")}`;
        lines.push(
          `Build context ready (sha256:${digest})`,
          `No image builder configured: ${imageRef} was named, not built (dry run)`,
        );
        return {
          imageRef,
          lines,
          record: {
            dockerfile,
            context: { files: unpacked.files.length, bytes: unpacked.bytes, sha256: digest },
            graph_config: {
              path: config.path,
              runtime: config.runtime,
              version: config.version,
              graphs: config.graphs,
            },
          },
        };
      } catch (error) {
        failWith(lines, error);
      } finally {
        // No image builder takes the folder (dry run), so nothing of the upload stays on disk.
        await rm(context, { recursive: true, force: true });
      }
    },
    async release(plan) {
      const objectPath = plan.source === "internal_source" ? ownedUpload(plan) : null;
      if (objectPath) await store().remove(objectPath);
    },
  };
}
