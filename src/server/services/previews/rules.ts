import type { PatchDeploymentInput } from "@/schemas/deployments";
import { badRequest } from "@/server/errors";
import type { StoredPreview } from "./names";
import { previewsWhat } from "./revision-gate";

// What cannot point a preview elsewhere (contract 5.6): it builds its pull request's head
// commit, from where the head lives, and nothing else.

interface PreviewRow {
  name: string;
  preview: unknown;
}

/** A PATCH may change a preview's settings and secrets, never what it builds. */
export function checkPreviewPatch(row: PreviewRow, input: PatchDeploymentInput): void {
  const preview = row.preview as StoredPreview | null;
  if (!preview) return;
  const what = previewsWhat(row.name, preview);
  if (input.revision_source != null && input.revision_source !== "codehost")
    throw badRequest(
      `${what}: its revisions build the pull request's head commit, so revision_source stays codehost.`,
    );
  const ref = input.source_revision_config?.repo_ref;
  if (ref != null && ref.replace(/^refs\/heads\//, "") !== preview.branch)
    throw badRequest(
      `${what}: its revisions build the pull request's head commit, so source_revision_config.repo_ref stays "${preview.branch}".`,
    );
}

/** Nothing is promoted to a preview: it runs its pull request's head commit only. */
export function checkPromoteTarget(row: PreviewRow): void {
  const preview = row.preview as StoredPreview | null;
  if (!preview) return;
  throw badRequest(
    `${previewsWhat(row.name, preview)}: it runs the pull request's head commit, so no image is promoted to it.`,
  );
}
