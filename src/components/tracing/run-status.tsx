import { Badge } from "@/components/ui/badge";
import type { RunStatus } from "@/schemas/tracing-dashboard";

const labels: Record<RunStatus, [string, "green" | "red" | "amber"]> = {
  success: ["Success", "green"],
  error: ["Error", "red"],
  pending: ["Running", "amber"],
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const [label, tone] = labels[status];
  return (
    <Badge tone={tone} dot pulse={status === "pending"}>
      {label}
    </Badge>
  );
}
