import { Badge, type BadgeTone } from "@/components/ui/badge";
import { isTerminal } from "@/schemas/revision-states";
import type { Runtime } from "@/schemas/deployments";
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

/** What a revision's badge says: a dry run's DEPLOYED only recorded its manifests. */
export function revisionStatusLabel(status: RevisionStatus, runtime: Runtime | null): string {
  return status === "DEPLOYED" && runtime === "dry_run"
    ? "Recorded (dry run)"
    : revisionStatusLabels[status];
}

export function RevisionStatusBadge({
  status,
  runtime,
}: {
  status: RevisionStatus;
  /** Where it was deployed (the revision's `runtime`): a dry run is not called deployed. */
  runtime: Runtime | null;
}) {
  const dryRun = status === "DEPLOYED" && runtime === "dry_run";
  const tone = isActiveRevision(status)
    ? "blue"
    : dryRun
      ? "amber"
      : (finalTones[status] ?? "zinc");
  return (
    <Badge tone={tone} dot>
      {revisionStatusLabel(status, runtime)}
    </Badge>
  );
}
