import { z } from "zod";
import { boolQuery, uuid } from "./common";
import { deploymentSortKeys, sortDirections } from "./deployment-sort";
import { deployment, listDeploymentsQuery } from "./deployments";
import { revisionStatus } from "./revisions";
import { runtimeState } from "./runtime";

// The dashboard's deployments list (tRPC only): the contract's list query plus sorting and the
// "failed" filter; each row carries its latest and active revisions and, when it may be
// unhealthy, what the cluster last said of it, so its badge tells the truth without a request per
// row; the page carries the total. The REST list keeps the contract's shape.

export const deploymentListViewQuery = listDeploymentsQuery.extend({
  sort: z.enum(deploymentSortKeys).optional(),
  dir: z.enum(sortDirections).optional(),
  failed: boolQuery,
});
export type DeploymentListViewQuery = z.output<typeof deploymentListViewQuery>;

export const revisionSummary = z.object({
  id: z.string(),
  number: z.number().int(),
  status: revisionStatus,
  status_message: z.string().nullable(),
});

/**
 * The runtime state's words the badge reads (5.7); the reason stays Kubernetes' own, and `words`
 * says it plainly (lib/runtime-words.ts, said on the server so the list's page loads none of it).
 */
export const rowHealth = runtimeState
  .pick({ healthy: true, reason: true, restarts: true, last_termination: true })
  .extend({ words: z.string().nullable() });

export const deploymentRow = deployment.extend({
  latest_revision: revisionSummary.nullable(),
  active_revision: revisionSummary.nullable(),
  /** Set when the status is UNKNOWN with a revision running: healthy null until observed. */
  health: rowHealth.nullable(),
});
export type DeploymentRow = z.infer<typeof deploymentRow>;

export const deploymentListView = z.object({
  resources: z.array(deploymentRow),
  offset: z.number().int(),
  total: z.number().int(),
});
export type DeploymentListView = z.infer<typeof deploymentListView>;

/** GET /v2/deployments/events: the whole workspace, or one deployment. */
export const deploymentEventsQuery = z.object({ deployment_id: uuid.optional() });

export const deploymentChange = z
  .object({ deployment_id: uuid })
  .meta({ id: "DeploymentChange", description: "Which deployment changed; read it again." });
