import { Badge } from "@/components/ui/badge";
import type { DeploymentRow } from "@/schemas/deployment-list-view";
import {
  deploymentDisplayStatus,
  type HealthInput,
  type RevisionSummary,
  type StatusInput,
} from "@/schemas/deployment-status";

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
export function ListStatus({ deployment }: { deployment: DeploymentRow }) {
  // The list read the cluster's word for the rows that may be unhealthy, all in one request.
  const health: HealthInput | null = deployment.health && {
    healthy: deployment.health.healthy,
    reason: deployment.health.words,
  };
  return (
    <div className="space-y-0.5">
      <StatusBadge
        deployment={deployment}
        latest={deployment.latest_revision}
        active={deployment.active_revision}
        health={health}
      />
      {health?.healthy === false && health.reason && (
        <p className="max-w-64 text-xs text-red-800 dark:text-red-300">{health.reason}</p>
      )}
    </div>
  );
}
