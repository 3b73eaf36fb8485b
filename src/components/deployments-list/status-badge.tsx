import { lazy, Suspense } from "react";
import { Badge } from "@/components/ui/badge";
import {
  deploymentDisplayStatus,
  FAILED_FILTER,
  type HealthInput,
  type RevisionSummary,
  type StatusInput,
} from "@/schemas/deployment-status";
import type { StatusChoice } from "./list-params";

// The cluster's health query and its plain words load only with a row that may be unhealthy; until
// then the badge shows as it does before the query answers.
const HealthStatus = lazy(() =>
  import("./health-status").then((m) => ({ default: m.HealthStatus })),
);

/** The status filter's choices: "Failed" (the latest revision failed) and the API's statuses. */
export const statusLabels: Record<StatusChoice, string> = {
  [FAILED_FILTER]: "Failed",
  READY: "Ready",
  AWAITING_DATABASE: "Awaiting database",
  UNUSED: "Unused",
  AWAITING_DELETE: "Deleting",
  UNKNOWN: "Unhealthy or unknown",
};

/** A deployment's badge: its status read together with its latest and active revisions. */
export function StatusBadge({
  deployment,
  latest,
  active,
  health = null,
}: {
  deployment: StatusInput;
  latest: RevisionSummary | null;
  active: RevisionSummary | null;
  health?: HealthInput | null;
}) {
  const status = deploymentDisplayStatus(deployment, latest, active, health);
  return (
    <span title={status.reason ?? status.note ?? undefined}>
      <Badge tone={status.tone} dot pulse={status.pulse}>
        {status.label}
      </Badge>
    </span>
  );
}

/** The list's status cell: the badge, and an unhealthy deployment's reason in plain words. */
export function ListStatus({
  deployment,
  latest,
  active,
}: {
  deployment: StatusInput & { id: string };
  latest: RevisionSummary | null;
  active: RevisionSummary | null;
}) {
  const badge = <StatusBadge deployment={deployment} latest={latest} active={active} />;
  // Only an UNKNOWN deployment with a running revision may be unhealthy: ask the cluster's word.
  const watch = deployment.status === "UNKNOWN" && !!deployment.active_revision_id;
  return (
    <div className="space-y-0.5">
      {watch ? (
        <Suspense fallback={badge}>
          <HealthStatus deployment={deployment} latest={latest} active={active} />
        </Suspense>
      ) : (
        badge
      )}
    </div>
  );
}
