import type { SourceConfig, SourceRevisionConfig } from "@/schemas/deployments";
import type { PreviewInfo, PullRequestEvent } from "@/schemas/previews";
import { sameRepo } from "@/server/integrations/codehost/repo-url";

/** `<name>-pr-<number>`, the parent's name cut so the whole stays a 63-character DNS label. */
export function previewName(parentName: string, prNumber: number): string {
  const suffix = `-pr-${prNumber}`;
  const head = parentName.slice(0, 63 - suffix.length).replace(/-+$/, "");
  return `${head}${suffix}`;
}

/** A pull request whose head lives in another repository (or a deleted one) is a fork's. */
export const isFork = (event: PullRequestEvent) =>
  !event.pull_request.head.repo ||
  !sameRepo(event.pull_request.head.repo.html_url, event.pull_request.base.repo.html_url);

/** The branch a deployment follows, without refs/heads/. */
export const branchOf = (config: SourceRevisionConfig) =>
  (config.repo_ref ?? "").replace(/^refs\/heads\//, "");

/** What a preview row stores about its pull request: PreviewInfo without parent_id. */
export type StoredPreview = Omit<PreviewInfo, "parent_id">;

/**
 * What the preview row stores about its pull request now. An approval is of one commit, so it
 * is carried over from what was stored (`approvedSha`), never taken from a delivery.
 */
export function previewFields(
  event: PullRequestEvent,
  now: Date,
  approvedSha: string | null = null,
): StoredPreview {
  const pr = event.pull_request;
  const fork = isFork(event);
  return {
    pr_number: event.number,
    pr_title: pr.title,
    pr_url: pr.html_url,
    branch: pr.head.ref,
    author: pr.user.login,
    head_sha: pr.head.sha,
    head_repo_url: pr.head.repo?.html_url ?? null,
    fork,
    approved_sha: fork ? approvedSha : null,
    last_push_at: now.toISOString(),
  };
}

/** The parent's configuration as a preview runs it: its own URL, no builds on push, no previews. */
export function previewSourceConfig(parent: SourceConfig): SourceConfig {
  return {
    ...parent,
    build_on_push: false,
    previews: null,
    custom_url: null,
    deployment_type: "dev",
  };
}
