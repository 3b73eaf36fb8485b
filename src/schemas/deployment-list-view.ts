import { z } from "zod";
import { boolQuery, uuid } from "./common";
import { deploymentSortKeys, sortDirections } from "./deployment-status";
import { deployment, listDeploymentsQuery } from "./deployments";
import { revisionStatus } from "./revisions";

// The dashboard's deployments list (tRPC only): the contract's list query plus sorting and the
// "failed" filter; each row carries its latest and active revisions so its badge tells the truth,
// and the page carries the total. The REST list keeps the contract's shape.

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

export const deploymentRow = deployment.extend({
  latest_revision: revisionSummary.nullable(),
  active_revision: revisionSummary.nullable(),
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
