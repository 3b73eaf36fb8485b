import { AppError } from "@/server/errors";
import type { CodehostClient } from "@/server/integrations/codehost/client";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import { codehostClientFor } from "@/server/services/codehost-integrations";
import { StepFailure, type SourceDriver, type SourceInput } from "./types";

const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, "");

/** Code-host sources resolve their ref to a commit through the integration; others have none. */
export function codehostSource(
  clientFor: (input: SourceInput) => CodehostClient = (input) =>
    codehostClientFor(input.integration!),
): SourceDriver {
  return {
    async resolve(input) {
      if (input.source !== "codehost") return { commitSha: null, lines: [] };
      if (!input.integration)
        throw new StepFailure("The deployment's code-host integration no longer exists.");
      const location = input.repoUrl ? repoOf(input.repoUrl) : null;
      if (!location)
        throw new StepFailure(`repo_url "${input.repoUrl}" does not name a repository.`);
      const { owner, repo } = location;
      const client = clientFor(input);
      const lines: string[] = [];
      let sha = input.pinnedSha;
      if (!sha) {
        const branch = branchOf(input.repoRef ?? "");
        sha = await client.getBranchCommit(owner, repo, branch);
        if (!sha) throw new StepFailure(`Branch "${branch}" not found in ${owner}/${repo}`);
        lines.push(`Resolved ${owner}/${repo}@${branch} to ${sha}`);
      } else {
        lines.push(`Using commit ${sha} of ${owner}/${repo}`);
      }
      // The graph config is read from the fetched archive by the build (the wizard checks it
      // before creation), with the same checks and messages as an upload's.
      return { commitSha: sha, lines };
    },
  };
}

/** Code-host errors (502s) carry a message a user can act on; keep it. */
export const userMessageOf = (error: unknown): string | null =>
  error instanceof StepFailure || error instanceof AppError ? error.message : null;
