import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Runtime } from "@/schemas/deployments";
import type { DeploymentStatus } from "./list-params";

export const statusLabels: Record<DeploymentStatus, string> = {
  READY: "Ready",
  AWAITING_DATABASE: "Awaiting database",
  UNUSED: "Unused",
  AWAITING_DELETE: "Deleting",
  UNKNOWN: "Unknown",
};

const tones: Record<DeploymentStatus, BadgeTone> = {
  READY: "green",
  AWAITING_DATABASE: "blue",
  UNUSED: "zinc",
  AWAITING_DELETE: "red",
  UNKNOWN: "red",
};

export function StatusBadge({ status }: { status: DeploymentStatus }) {
  return (
    <Badge tone={tones[status]} dot pulse={status === "AWAITING_DELETE"}>
      {statusLabels[status]}
    </Badge>
  );
}

/** Shown when the deployment's active revision was a dry run: nothing of it runs anywhere. */
export function RuntimeBadge({ runtime }: { runtime: Runtime | null }) {
  if (runtime !== "dry_run") return null;
  return (
    <span title="No cluster is configured: nothing was built or started; the manifests are only recorded.">
      <Badge tone="amber">Dry run</Badge>
    </span>
  );
}
