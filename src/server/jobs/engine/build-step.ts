import { env } from "@/env";
import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import { registryConfig, registryImageOf } from "@/server/registry/config";
import { manifestDigest, RegistryLookupError } from "@/server/registry/manifest";
import { asJson } from "@/server/services/deployments/serialize";
import { findTemplate } from "@/server/services/templates";
import { claimUploadForBuild } from "@/server/services/uploads";
import { StepFailure } from "../drivers";
import type { BuildPlan } from "../drivers/types";
import { buildTargetOf } from "./build-target";
import { watchBuild } from "./build-watch";
import { liveLog } from "./live-log";
import {
  advance,
  newerRevision,
  supersededMessage,
  type EngineContext,
  type EngineRevision,
} from "./context";

/** The image a container source runs as is; null for sources that are built. */
function containerImage(revision: EngineRevision): string | null {
  const config = revision.sourceRevisionConfig as SourceRevisionConfig;
  if (revision.source === "external_container" || revision.source === "internal_container") {
    return config.image_uri ?? null;
  }
  if (revision.source === "internal_template") {
    const templateId = (revision.sourceConfig as SourceConfig).template_id ?? "";
    return config.image_uri ?? findTemplate(templateId)?.image_uri ?? null;
  }
  return null;
}

export function buildPlanOf(revision: EngineRevision): BuildPlan {
  const config = revision.sourceRevisionConfig as SourceRevisionConfig;
  const sourceConfig = revision.sourceConfig as SourceConfig;
  return {
    source: revision.source,
    deployment_id: revision.deploymentId,
    repo_url: revision.source === "codehost" ? revision.deployment.repoUrl : null,
    repo_commit_sha: config.repo_commit_sha ?? null,
    source_tarball_path: config.source_tarball_path ?? null,
    graph_config_path: config.graph_config_path ?? null,
    install_command: sourceConfig.install_command ?? null,
    build_command: sourceConfig.build_command ?? null,
    ...(revision.deployment.trackedPackages.length
      ? { tracked_packages: revision.deployment.trackedPackages }
      : {}),
  };
}

/**
 * An image in Hangar's registry is pinned to the digest its tag names now, so a re-pushed tag
 * deploys what was pushed when the revision was cut; a redeploy keeps the digest it restores
 * (`known`). Other images run as named.
 */
async function pinnedImage(
  image: string,
  known: string | null,
): Promise<{ imageRef: string; imageDigest?: string }> {
  const config = registryConfig();
  const inRegistry = config ? registryImageOf(config, image) : null;
  if (!config || !inRegistry) return { imageRef: image };
  const digest = known ?? (await manifestDigest(config, inRegistry));
  return {
    imageRef: `${config.host}/${inRegistry.repository}@${digest}`,
    imageDigest: digest,
  };
}

/** AWAITING_BUILD: a newer revision wins before the build starts; containers skip the build. */
export async function startBuild(ctx: EngineContext, revision: EngineRevision): Promise<void> {
  const newer = await newerRevision(ctx.db, revision);
  if (newer) {
    const message = supersededMessage(newer);
    await advance(ctx, revision.id, {
      from: ["AWAITING_BUILD"],
      to: "SKIPPED",
      message,
      stream: "build",
      lines: [message],
    });
    return;
  }
  const image = containerImage(revision);
  if (revision.source !== "codehost" && revision.source !== "internal_source") {
    if (!image) {
      const message = "The revision names no container image (image_uri).";
      await advance(ctx, revision.id, {
        from: ["AWAITING_BUILD"],
        to: "BUILD_FAILED",
        message,
        stream: "build",
        lines: [message],
      });
      return;
    }
    let pinned;
    try {
      pinned = await pinnedImage(image, revision.imageDigest);
    } catch (error) {
      if (!(error instanceof RegistryLookupError)) throw error;
      await advance(ctx, revision.id, {
        from: ["AWAITING_BUILD"],
        to: "BUILD_FAILED",
        message: error.message,
        stream: "build",
        lines: [error.message],
      });
      return;
    }
    await advance(ctx, revision.id, {
      from: ["AWAITING_BUILD"],
      to: "AWAITING_DEPLOY",
      data: pinned,
      stream: "build",
      lines: [
        `Container source: nothing to build, image ${image}`,
        ...(pinned.imageDigest ? [`Pushed image digest ${pinned.imageDigest}`] : []),
      ],
    });
    return;
  }
  await advance(ctx, revision.id, {
    from: ["AWAITING_BUILD"],
    to: "BUILDING",
    stream: "build",
    lines: ["Build started"],
  });
}

/** A revision from source with no image cannot run on a cluster: nothing was built. */
const NOTHING_BUILT =
  "No image builder is configured (HANGAR_BUILDER), so nothing was built and there is no image to deploy to the cluster: the operator sets HANGAR_BUILDER (README, Builds).";

const timedOutMessage = (seconds: number) =>
  `The build took longer than HANGAR_BUILD_TIMEOUT_SECONDS (${seconds} s) and was stopped.`;

/**
 * BUILDING: the builder turns the plan into an image, pushed with a token of the build's own;
 * the result lands with the status move. Interrupting the revision or the time limit stops it.
 */
export async function buildStep(ctx: EngineContext, revision: EngineRevision): Promise<void> {
  const plan = buildPlanOf(revision);
  if (revision.source === "internal_source") {
    // An upload is built once, by one revision: another revision naming it fails here.
    const refused = await claimUploadForBuild(ctx.db, revision, plan.source_tarball_path);
    if (refused) {
      await advance(ctx, revision.id, {
        from: ["BUILDING"],
        to: "BUILD_FAILED",
        message: refused,
        stream: "build",
        lines: [refused],
      });
      return;
    }
  }
  const timeoutSeconds = env.HANGAR_BUILD_TIMEOUT_SECONDS;
  const output = await liveLog(ctx.db, revision.id, "build");
  const push = await buildTargetOf(ctx, revision, timeoutSeconds);
  const watch = watchBuild(ctx.db, revision.id, timeoutSeconds);
  const failed = (message: string, lines: string[] = []) =>
    advance(ctx, revision.id, {
      from: ["BUILDING"],
      to: "BUILD_FAILED",
      message,
      stream: "build",
      lines: [...lines, message],
    });
  try {
    const io = { log: output.log, signal: watch.signal, target: push?.target ?? null };
    const built = await ctx.drivers.builder.build(plan, io);
    await output.flush();
    if (!built.imageDigest && ctx.drivers.deployer.runtime === "kubernetes") {
      await failed(NOTHING_BUILT, built.lines);
    } else {
      await advance(ctx, revision.id, {
        from: ["BUILDING"],
        to: "AWAITING_DEPLOY",
        data: {
          imageRef: built.imageRef,
          imageDigest: built.imageDigest,
          buildPlan: asJson({ ...plan, ...built.record }),
        },
        stream: "build",
        lines: [...built.lines, "Build finished"],
      });
    }
  } catch (error) {
    await output.flush();
    const lines = error instanceof StepFailure ? error.lines : [];
    // Stopped, whatever the builder threw: by the time limit, or by the revision (interrupted or
    // deleted), whose move is already recorded.
    if (watch.timedOut()) await failed(timedOutMessage(timeoutSeconds), lines);
    else if (!watch.signal.aborted) {
      if (!(error instanceof StepFailure)) throw error;
      await failed(error.message, lines);
    }
  } finally {
    await watch.stop();
    await push?.release();
  }
  // Only once the outcome is recorded: a retried step still finds its archive.
  await ctx.drivers.builder.release?.(plan);
}
