import { Badge, type BadgeTone } from "@/components/ui/badge";
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
