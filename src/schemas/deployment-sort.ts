// The deployments list's status filter and sort values: plain values (no zod), loaded by the
// list's controls in the browser without the badge's reading (deployment-status.ts).

/** The list's status filter: the API's statuses plus "failed" (its latest revision failed). */
export const FAILED_FILTER = "FAILED";

/** The list's sortable columns and directions (the URL's `sort` and `dir`). */
export const deploymentSortKeys = ["name", "created", "updated", "status"] as const;
export const sortDirections = ["asc", "desc"] as const;
export interface DeploymentSort {
  by: (typeof deploymentSortKeys)[number];
  dir: (typeof sortDirections)[number];
}

/** Without a chosen sort the list is newest first. */
export const DEFAULT_SORT: DeploymentSort = { by: "created", dir: "desc" };

/** Names and statuses read best from the top; times from the newest. */
export const defaultSortDir = (by: DeploymentSort["by"]): DeploymentSort["dir"] =>
  by === "name" || by === "status" ? "asc" : "desc";
