import { Badge, type BadgeTone } from "@/components/ui/badge";
import { isTerminal } from "@/schemas/revision-states";
import type { RevisionStatus } from "@/schemas/revisions";

/** How often pages refetch while a revision is in progress. */
export const REVISION_POLL_MS = 2500;

/** A revision still moving through its steps (the state table's non-final statuses): pages poll. */
export const isActiveRevision = (status: RevisionStatus) => !isTerminal(status);

export const revisionStatusLabels: Record<RevisionStatus, string> = {
  CREATING: "Creating",
  QUEUED: "Queued",
  AWAITING_BUILD: "Awaiting build",
  BUILDING: "Building",
  AWAITING_DEPLOY: "Awaiting deploy",
  DEPLOYING: "Deploying",
  CREATE_FAILED: "Create failed",
  BUILD_FAILED: "Build failed",
  DEPLOY_FAILED: "Deploy failed",
  DEPLOYED: "Deployed",
  SKIPPED: "Skipped",
  INTERRUPTED: "Interrupted",
  UNKNOWN: "Unknown",
};

/** Final statuses by outcome; every active one is blue. */
const finalTones: Partial<Record<RevisionStatus, BadgeTone>> = {
  CREATE_FAILED: "red",
  BUILD_FAILED: "red",
  DEPLOY_FAILED: "red",
  DEPLOYED: "green",
  SKIPPED: "zinc",
  INTERRUPTED: "amber",
  UNKNOWN: "zinc",
};

export function RevisionStatusBadge({ status }: { status: RevisionStatus }) {
  return (
    <Badge tone={isActiveRevision(status) ? "blue" : (finalTones[status] ?? "zinc")} dot>
      {revisionStatusLabels[status]}
    </Badge>
  );
}
