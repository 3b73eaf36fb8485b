import type { Repository } from "@/schemas/codehost-integrations";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { codehostClientFor, findCodehostIntegration } from "./codehost-integrations";

const lower = (s: string) => s.toLowerCase();
const compareText = (a: string, b: string) =>
  lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : a < b ? -1 : a > b ? 1 : 0;

/** The repositories an integration can deploy from (spec 4.3), sorted by owner then name. */
export async function listIntegrationRepositories(
  db: Db,
  actor: Actor,
  integrationId: string,
  signal?: AbortSignal,
): Promise<Repository[]> {
  const integration = await findCodehostIntegration(db, actor, integrationId);
  const repos = await codehostClientFor(integration).listRepositories({ signal });
  return repos
    .map((r) => ({
      host_integration_id: integration.id,
      id: r.id,
      name: r.name,
      owner: r.owner,
      url: r.url,
      default_branch: r.defaultBranch,
    }))
    .sort((a, b) => compareText(a.owner, b.owner) || compareText(a.name, b.name));
}
