import type { SourceRevisionConfig } from "@/schemas/deployments";
import type { DbClient } from "@/server/db";
import { lockDeploymentRow } from "@/server/services/deployments/find";
import { asJson } from "@/server/services/deployments/serialize";
import type { StoredPreview } from "@/server/services/previews/names";
import { previewBuildLines } from "@/server/services/previews/revision-gate";
import { StepFailure } from "../drivers";
import {
  admissionOf,
  advance,
  applyMove,
  retryLater,
  supersededMessage,
  type EngineContext,
  type EngineRevision,
  type Move,
} from "./context";

type Gate = { kind: "go" } | { kind: "wait" } | { kind: "skip"; message: string };

/** Only one revision per deployment is in flight, and the newest wins. */
async function gate(db: DbClient, revision: EngineRevision): Promise<Gate> {
  const { newer, otherInFlight } = await admissionOf(db, revision);
  if (newer) return { kind: "skip", message: supersededMessage(newer) };
  return otherInFlight ? { kind: "wait" } : { kind: "go" };
}

const skip = (message: string): Move => ({
  from: ["QUEUED"],
  to: "SKIPPED",
  message,
  stream: "build",
  lines: [message],
});

/**
 * QUEUED: resolve the source (for code hosts, the commit), then admit the revision with its
 * deployment's row locked, so two workers never admit two revisions at once.
 */
export async function sourceStep(ctx: EngineContext, revision: EngineRevision): Promise<void> {
  const { db } = ctx;
  if (revision.deployment.status === "AWAITING_DELETE") {
    const message = "The deployment is being deleted.";
    await advance(ctx, revision.id, {
      from: ["QUEUED"],
      to: "INTERRUPTED",
      message,
      stream: "build",
      lines: [message],
    });
    return;
  }
  const early = await gate(db, revision);
  if (early.kind === "skip") return void (await advance(ctx, revision.id, skip(early.message)));
  if (early.kind === "wait") return retryLater(db, ctx, revision.id);

  const config = revision.sourceRevisionConfig as SourceRevisionConfig;
  const integration = revision.deployment.integrationId
    ? await db.codehostIntegration.findUnique({ where: { id: revision.deployment.integrationId } })
    : null;
  let resolved;
  try {
    resolved = await ctx.drivers.source.resolve({
      source: revision.source,
      integration,
      repoUrl: revision.deployment.repoUrl,
      repoRef: config.repo_ref,
      pinnedSha: config.repo_commit_sha ?? null,
    });
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    await advance(ctx, revision.id, {
      from: ["QUEUED"],
      to: "CREATE_FAILED",
      message: error.message,
      stream: "build",
      lines: [error.message],
    });
    return;
  }

  const sha = resolved.commitSha;
  await db.$transaction(async (tx) => {
    await lockDeploymentRow(tx, revision.deploymentId);
    const admitted = await gate(tx, revision);
    if (admitted.kind === "skip")
      return void (await applyMove(tx, ctx, revision.id, skip(admitted.message)));
    if (admitted.kind === "wait") return retryLater(tx, ctx, revision.id);
    await applyMove(tx, ctx, revision.id, {
      from: ["QUEUED"],
      to: "AWAITING_BUILD",
      data: sha ? { sourceRevisionConfig: asJson({ ...config, repo_commit_sha: sha }) } : {},
      stream: "build",
      lines: [
        `Revision ${revision.number} admitted (${revision.source})`,
        ...resolved.lines,
        ...(revision.deployment.preview
          ? previewBuildLines(revision.deployment.preview as StoredPreview, {
              sha,
              baseRepoUrl: revision.deployment.repoUrl,
              secretsWithheld: revision.secretsWithheld,
            })
          : []),
      ],
      // The deployment shows the commit of its latest revision.
      also: async (inner) => {
        if (!sha) return;
        await inner.$executeRaw`
          UPDATE deployments
          SET source_revision_config = jsonb_set(source_revision_config, '{repo_commit_sha}', to_jsonb(${sha}::text)),
              updated_at = now()
          WHERE id = ${revision.deploymentId}::uuid AND latest_revision_id = ${revision.id}::uuid`;
      },
    });
  });
}
