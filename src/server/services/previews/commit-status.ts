import type PgBoss from "pg-boss";
import type { RevisionStatus } from "@/generated/prisma/client";
import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { Db, DbClient } from "@/server/db";
import type { CommitStatus } from "@/server/integrations/codehost/client";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import { codehostClientFor } from "../codehost-integrations";
import { deploymentUrlOf } from "../deployments/url";
import { enqueuePreviewStatus } from "../revisions/queue";
import { WITHHELD_NOTE } from "./revision-gate";

// Each preview revision is reported on its pull request's head commit as a commit status
// (contract 5.6): pending while it is built and deployed, success with the preview's URL once
// it runs, failure with the reason. A dry run (no cluster) never says a preview runs.

export const STATUS_CONTEXT = "hangar/preview";

/** Moves worth telling the pull request about (the cut itself reports `pending` too). */
const REPORTED: ReadonlySet<RevisionStatus> = new Set([
  "BUILDING",
  "DEPLOYING",
  "DEPLOYED",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "SKIPPED",
  "INTERRUPTED",
]);

/** In a move's transaction: queue a report when the revision belongs to a preview. */
export async function queuePreviewStatus(
  tx: DbClient,
  revisionId: string,
  status: RevisionStatus,
  boss?: PgBoss,
): Promise<void> {
  if (!REPORTED.has(status)) return;
  const [row] = await tx.$queryRaw<{ preview: boolean }[]>`
    SELECT d.preview IS NOT NULL AS preview FROM revisions r
    JOIN deployments d ON d.id = r.deployment_id WHERE r.id = ${revisionId}::uuid`;
  if (row?.preview) await enqueuePreviewStatus(tx, revisionId, { boss });
}

interface Reported {
  number: number;
  status: RevisionStatus;
  statusMessage: string | null;
  runtime: string | null;
  /** A fork's unapproved head: the revision runs without the preview's secrets. */
  secretsWithheld?: boolean;
}

/**
 * The commit status a revision's current state makes: says only what happened, and that a
 * fork's unapproved commit runs without the preview's secrets.
 */
export function commitStatusOf(revision: Reported, url: string | null): CommitStatus {
  const status = stateOf(revision, url);
  if (!revision.secretsWithheld) return status;
  return { ...status, description: `${status.description} ${WITHHELD_NOTE}` };
}

function stateOf(revision: Reported, url: string | null): CommitStatus {
  const n = revision.number;
  const base = { context: STATUS_CONTEXT, targetUrl: null };
  switch (revision.status) {
    case "CREATING":
    case "QUEUED":
    case "AWAITING_BUILD":
      return { ...base, state: "pending", description: `Hangar: revision ${n} is queued.` };
    case "BUILDING":
      return { ...base, state: "pending", description: `Hangar: building revision ${n}.` };
    case "AWAITING_DEPLOY":
    case "DEPLOYING":
      return { ...base, state: "pending", description: `Hangar: deploying revision ${n}.` };
    case "DEPLOYED":
      if (revision.runtime !== "kubernetes")
        return {
          ...base,
          state: "success",
          description: `Dry run: revision ${n} was recorded, nothing was started (no cluster configured).`,
        };
      return {
        ...base,
        state: "success",
        targetUrl: url,
        description: `Preview running: revision ${n}.`,
      };
    case "CREATE_FAILED":
    case "BUILD_FAILED":
    case "DEPLOY_FAILED":
      return {
        ...base,
        state: "failure",
        description: `${revision.status}: ${revision.statusMessage ?? "no reason was given"}`,
      };
    default:
      return {
        ...base,
        state: "error",
        description: `${revision.status}: ${revision.statusMessage ?? "the revision did not finish"}`,
      };
  }
}

/**
 * Sends the revision's current state to its head commit through the integration's credentials.
 * Throws when the code host fails (the queue retries); a preview gone, or without an
 * integration, commit or repository, reports nothing.
 */
export async function reportPreviewStatus(
  db: Db,
  revisionId: string,
): Promise<CommitStatus | null> {
  const revision = await db.revision.findUnique({
    where: { id: revisionId },
    include: { deployment: { include: { integration: true } } },
  });
  const deployment = revision?.deployment;
  if (!revision || !deployment?.preview || !deployment.integration || !deployment.repoUrl)
    return null;
  const sha = (revision.sourceRevisionConfig as SourceRevisionConfig).repo_commit_sha;
  const location = repoOf(deployment.repoUrl);
  if (!sha || !location) return null;
  const url = deploymentUrlOf({
    id: deployment.id,
    name: deployment.name,
    customUrl: (revision.sourceConfig as SourceConfig).custom_url ?? null,
  });
  const status = commitStatusOf(revision, url);
  await codehostClientFor(deployment.integration).createCommitStatus(
    location.owner,
    location.repo,
    sha,
    status,
  );
  return status;
}
