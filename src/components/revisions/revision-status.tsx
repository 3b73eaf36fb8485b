import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RevisionStatus } from "@/schemas/revisions";

/** Statuses a revision is still moving through: while any is shown, the pages poll. */
export const activeRevisionStatuses: ReadonlySet<RevisionStatus> = new Set([
  "CREATING",
  "QUEUED",
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
]);

/** How often pages refetch while a revision is in progress. */
export const REVISION_POLL_MS = 2500;

export const isActiveRevision = (status: RevisionStatus) => activeRevisionStatuses.has(status);

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

const tones: Record<RevisionStatus, BadgeTone> = {
  CREATING: "blue",
  QUEUED: "blue",
  AWAITING_BUILD: "blue",
  BUILDING: "blue",
  AWAITING_DEPLOY: "blue",
  DEPLOYING: "blue",
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
    <Badge tone={tones[status]} dot>
      {revisionStatusLabels[status]}
    </Badge>
  );
}
