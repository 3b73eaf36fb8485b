import type { CheckCodehostSourceInput, ConnectionCheck } from "@/schemas/codehost-integrations";
import { requireOrgRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { invalidField } from "@/server/errors";
import { repoOf } from "@/server/integrations/codehost/repo-url";
import { codehostClientFor, findCodehostIntegration } from "./codehost-integrations";

// Checks against the code host that the dashboard asks for before it relies on an answer.

/** Tries the integration's stored credentials now and remembers the outcome. */
export async function testCodehostIntegration(
  db: Db,
  actor: Actor,
  integrationId: string,
): Promise<ConnectionCheck> {
  requireOrgRole(actor, "admin");
  const row = await findCodehostIntegration(db, actor, integrationId);
  const check = await codehostClientFor(row).checkAccess();
  const checkedAt = new Date();
  const error = check.ok ? null : check.message;
  await db.codehostIntegration.update({
    where: { id: row.id },
    data: { lastCheckedAt: checkedAt, lastCheckError: error },
  });
  return { ok: check.ok, checked_at: checkedAt.toISOString(), error };
}

const revisionField = (field: string) => ["body", "source_revision_config", field];

/**
 * Before a code-host deployment is created: the branch exists in the repository and the graph
 * config file exists on it. Each problem is a 422 on its field, saying what is missing where.
 */
export async function checkCodehostSource(
  db: Db,
  actor: Actor,
  input: CheckCodehostSourceInput,
): Promise<void> {
  const row = await findCodehostIntegration(db, actor, input.integration_id);
  const location = repoOf(input.repo_url);
  if (!location) {
    throw invalidField(
      ["body", "source_config", "repo_url"],
      `${input.repo_url} does not name a repository`,
    );
  }
  const { owner, repo } = location;
  const client = codehostClientFor(row);
  const branch = input.repo_ref.replace(/^refs\/heads\//, "");
  const sha = await client.getBranchCommit(owner, repo, branch);
  if (!sha) {
    throw invalidField(
      revisionField("repo_ref"),
      `Branch "${branch}" does not exist in ${owner}/${repo}`,
      "not_found",
    );
  }
  if (!(await client.fileExists(owner, repo, input.graph_config_path, sha))) {
    throw invalidField(
      revisionField("graph_config_path"),
      `No file "${input.graph_config_path}" on branch "${branch}" of ${owner}/${repo}`,
      "not_found",
    );
  }
}
