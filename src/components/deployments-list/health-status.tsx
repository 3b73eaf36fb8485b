"use client";

import type { RevisionSummary, StatusInput } from "@/schemas/deployment-status";
import { StatusBadge } from "./status-badge";
import { useRuntimeHealth } from "./use-runtime-health";

/** The status of a deployment that may be unhealthy: the badge with the cluster's word and why. */
export function HealthStatus({
  deployment,
  latest,
  active,
}: {
  deployment: StatusInput & { id: string };
  latest: RevisionSummary | null;
  active: RevisionSummary | null;
}) {
  const health = useRuntimeHealth(deployment.id, true);
  return (
    <>
      <StatusBadge deployment={deployment} latest={latest} active={active} health={health} />
      {health?.healthy === false && health.reason && (
        <p className="max-w-64 text-xs text-red-800 dark:text-red-300">{health.reason}</p>
      )}
    </>
  );
}
