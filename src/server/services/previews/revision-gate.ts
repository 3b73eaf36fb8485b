import type { SourceRevisionConfig } from "@/schemas/deployments";
import { badRequest } from "@/server/errors";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import type { RevisionSnapshot } from "../deployments/revisions-cut";
import type { StoredPreview } from "./names";

// Every revision of a preview, whoever cuts it (a delivery, a PATCH, a redeploy, an approval),
// builds exactly its pull request's head commit; a fork's gets the preview's secrets only when
// that commit is the one an editor approved (contract 5.6).

/** The commit status's and the build log's words for a revision cut without its secrets. */
export const WITHHELD_NOTE = "Without secrets: a new commit from a fork awaits approval.";

/** The pull request's head commit, never a branch of the head's name in the base repository. */
export const previewRevisionConfig = (
  preview: StoredPreview,
  config: SourceRevisionConfig,
): SourceRevisionConfig => ({
  ...config,
  repo_ref: preview.branch,
  repo_commit_sha: preview.head_sha,
});

/** A fork's head that is not the approved commit runs without the preview's secrets. */
export const awaitsApproval = (preview: StoredPreview) =>
  preview.fork && preview.approved_sha !== preview.head_sha;

/** `<name> previews pull request #<n>`: how the refusals about a preview begin. */
export const previewsWhat = (name: string, preview: StoredPreview) =>
  `${name} previews pull request #${preview.pr_number}`;

/**
 * The snapshot a preview's revision is cut with: the head commit, and no secrets for a fork's
 * unapproved head. Other sources (an image, an upload) never run as a preview.
 */
export function gatePreviewRevision(
  name: string,
  preview: StoredPreview,
  snapshot: RevisionSnapshot,
): RevisionSnapshot & { secretsWithheld: boolean } {
  if (snapshot.source !== "codehost")
    throw badRequest(
      `${previewsWhat(name, preview)}: its revisions build the pull request's head commit, so their source is codehost, not ${snapshot.source}.`,
    );
  const withheld = awaitsApproval(preview) && snapshot.secrets.length > 0;
  return {
    ...snapshot,
    sourceRevisionConfig: previewRevisionConfig(preview, snapshot.sourceRevisionConfig),
    secrets: withheld ? [] : snapshot.secrets,
    // A code-host revision is built again from its commit, never run from an earlier image.
    imageDigest: null,
    secretsWithheld: withheld,
  };
}

/**
 * The build log's account of where a preview revision's commit comes from and what it runs
 * with: a fork's head is fetched through the base repository, which holds it as the pull
 * request's ref (refs/pull/<n>/head), never from a branch of that name there.
 */
export function previewBuildLines(
  preview: StoredPreview,
  revision: { sha: string | null; baseRepoUrl: string | null; secretsWithheld: boolean },
): string[] {
  const base = revision.baseRepoUrl ? repoOf(revision.baseRepoUrl) : null;
  const baseName = base ? `${base.owner}/${base.repo}` : "the base repository";
  const head = preview.head_repo_url ? repoOf(preview.head_repo_url) : null;
  const headName = head ? `${head.owner}/${head.repo}` : "a fork that was deleted";
  const n = preview.pr_number;
  const lines = [
    preview.fork
      ? `Pull request #${n}'s head commit ${revision.sha} from the fork ${headName} (branch ${preview.branch}), fetched through ${baseName}'s refs/pull/${n}/head, not from a branch of ${baseName}`
      : `Pull request #${n}'s head commit ${revision.sha} (branch ${preview.branch} of ${baseName})`,
  ];
  if (revision.secretsWithheld)
    lines.push(
      `Built ${WITHHELD_NOTE.charAt(0).toLowerCase()}${WITHHELD_NOTE.slice(1)}`,
      `The preview's secrets apply once an editor approves ${revision.sha} (approved: ${preview.approved_sha ?? "no commit yet"}).`,
    );
  return lines;
}
