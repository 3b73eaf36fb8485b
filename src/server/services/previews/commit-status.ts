import type PgBoss from "pg-boss";
import type { RevisionStatus } from "@/generated/prisma/client";
import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { DbClient } from "@/server/db";
import type { CommitStatus } from "@/server/integrations/codehost/client";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import { deploymentUrlOf } from "../deployments/url";
import { WITHHELD_NOTE } from "./revision-gate";
import { queueCommitStatus } from "./status-outbox";

// Each preview revision is reported on its pull request's head commit as a commit status
// (contract 5.6): pending from its cut while it is built and deployed, success with the
// preview's URL once it runs, failure with the reason; each state once, in order. A dry run
// (no cluster) never says a preview runs. A refused preview says why on the head commit.

export const STATUS_CONTEXT = "hangar/preview";

/** Statuses worth telling the pull request about: the cut (QUEUED) and the moves after it. */
const REPORTED: ReadonlySet<RevisionStatus> = new Set([
  "QUEUED",
  "BUILDING",
  "DEPLOYING",
  "DEPLOYED",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "SKIPPED",
  "INTERRUPTED",
]);

/**
 * In the transaction of a preview revision's cut or move: records the status that state makes
 * (read in that transaction, so a late job still sends what the revision was then) for its head
 * commit, and queues its sending (status-outbox.ts). Other deployments' revisions report nothing.
 */
export async function queuePreviewStatus(
  tx: DbClient,
  revisionId: string,
  status: RevisionStatus,
  boss?: PgBoss,
): Promise<void> {
  if (!REPORTED.has(status)) return;
  const revision = await tx.revision.findUnique({
    where: { id: revisionId },
    select: {
      id: true,
      number: true,
      status: true,
      statusMessage: true,
      runtime: true,
      secretsWithheld: true,
      sourceConfig: true,
      sourceRevisionConfig: true,
      deployment: {
        select: { id: true, name: true, preview: true, integrationId: true, repoUrl: true },
      },
    },
  });
  const deployment = revision?.deployment;
  if (!revision || !deployment?.preview || !deployment.integrationId || !deployment.repoUrl) return;
  const sha = (revision.sourceRevisionConfig as SourceRevisionConfig).repo_commit_sha;
  const location = repoOf(deployment.repoUrl);
  if (!sha || !location) return;
  const url = deploymentUrlOf({
    id: deployment.id,
    name: deployment.name,
    customUrl: (revision.sourceConfig as SourceConfig).custom_url ?? null,
  });
  await queueCommitStatus(
    tx,
    { integrationId: deployment.integrationId, ...location, sha },
    commitStatusOf(revision, url),
    revision.id,
    boss,
  );
}

/**
 * In the delivery's transaction: a pull request that gets no preview (max_open, a name taken)
 * hears why on its head commit, as an `error` (nothing was built).
 */
export async function queueRefusalStatus(
  tx: DbClient,
  parent: { integrationId: string | null; repoUrl: string | null },
  headSha: string,
  detail: string,
): Promise<void> {
  const location = parent.repoUrl ? repoOf(parent.repoUrl) : null;
  if (!parent.integrationId || !location) return;
  const status: CommitStatus = {
    state: "error",
    context: STATUS_CONTEXT,
    targetUrl: null,
    description: detail.startsWith("No preview: ") ? detail : `No preview: ${detail}`,
  };
  await queueCommitStatus(
    tx,
    { integrationId: parent.integrationId, ...location, sha: headSha },
    status,
    null,
  );
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
