import { FAILED_FILTER } from "@/schemas/deployment-sort";
import type { StatusChoice } from "./list-params";

/** The status filter's choices: "Failed" (the latest revision failed) and the API's statuses. */
export const statusLabels: Record<StatusChoice, string> = {
  [FAILED_FILTER]: "Failed",
  READY: "Ready",
  AWAITING_DATABASE: "Awaiting database",
  UNUSED: "Unused",
  AWAITING_DELETE: "Deleting",
  UNKNOWN: "Unhealthy or unknown",
};
