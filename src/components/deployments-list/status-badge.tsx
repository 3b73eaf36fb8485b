import { Badge } from "@/components/ui/badge";
import {
  deploymentDisplayStatus,
  FAILED_FILTER,
  type RevisionSummary,
  type StatusInput,
} from "@/schemas/deployment-status";
import type { StatusChoice } from "./list-params";

/** The status filter's choices: "Failed" (the latest revision failed) and the API's statuses. */
export const statusLabels: Record<StatusChoice, string> = {
  [FAILED_FILTER]: "Failed",
  READY: "Ready",
  AWAITING_DATABASE: "Awaiting database",
  UNUSED: "Unused",
  AWAITING_DELETE: "Deleting",
  UNKNOWN: "Unknown",
};

/** A deployment's badge: its status read together with its latest and active revisions. */
export function StatusBadge({
  deployment,
  latest,
  active,
}: {
  deployment: StatusInput;
  latest: RevisionSummary | null;
  active: RevisionSummary | null;
}) {
  const status = deploymentDisplayStatus(deployment, latest, active);
  return (
    <span title={status.reason ?? status.note ?? undefined}>
      <Badge tone={status.tone} dot pulse={status.pulse}>
        {status.label}
      </Badge>
    </span>
  );
}
