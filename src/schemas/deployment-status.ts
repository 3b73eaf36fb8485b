import type { deploymentSources, deploymentStatuses } from "./deployment-values";
import type { RevisionStatus } from "./revisions";
import { isTerminal } from "./revision-states";

// What a deployment's badge says, in one place: its status combined with its latest and active
// revisions. The API keeps its own fields (status, latest_revision_id, active_revision_id,
// runtime); this is the dashboard's reading of them, used by the list, the overview, the status
// filter and the tests. Plain values (no zod): the browser imports it.

/** The few fields of a revision the status needs. */
export interface RevisionSummary {
  id: string;
  number: number;
  status: RevisionStatus;
  status_message: string | null;
}

export interface StatusInput {
  status: (typeof deploymentStatuses)[number];
  source: (typeof deploymentSources)[number];
  runtime: "kubernetes" | "dry_run" | null;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  /** A listener's deployment (its UNKNOWN may mean the listener is offline). */
  source_config?: { listener_id: string | null } | null;
}

/** What the cluster last said of the active revision (runtime.state), when it is at hand. */
export interface HealthInput {
  healthy: boolean | null;
  /** The plain reason (src/lib/runtime-words.ts), e.g. "Crashing: out of memory, exit 137". */
  reason: string | null;
}

export type DisplayStatusKind =
  | "deleting"
  | "failed"
  | "deploying"
  | "live"
  | "dry_run"
  | "interrupted"
  | "unhealthy"
  | "waiting"
  | "idle"
  | "unknown";

export type DisplayTone = "green" | "amber" | "red" | "zinc" | "blue";

export interface DisplayStatus {
  kind: DisplayStatusKind;
  /** The badge's text, e.g. "Live, revision #3", "Deploying #4", "Failed". */
  label: string;
  tone: DisplayTone;
  /** Something is happening right now. */
  pulse: boolean;
  /** Why it failed, e.g. "create failed: branch nonexistent not found" (failed only). */
  reason: string | null;
  /** The revision still serving beside a failed or running newer one, e.g. "revision #3 still live". */
  note: string | null;
}

/** Revision statuses that end a revision in failure. */
export const FAILED_REVISION_STATUSES = [
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
] as const satisfies readonly RevisionStatus[];

export const isFailedRevision = (status: RevisionStatus) =>
  (FAILED_REVISION_STATUSES as readonly RevisionStatus[]).includes(status);

const failureWords: Record<(typeof FAILED_REVISION_STATUSES)[number], string> = {
  CREATE_FAILED: "create failed",
  BUILD_FAILED: "build failed",
  DEPLOY_FAILED: "deploy failed",
};

/** "create failed: <message>" for a failed revision. */
export function failureReason(revision: RevisionSummary): string {
  const words = failureWords[revision.status as keyof typeof failureWords] ?? "failed";
  return revision.status_message ? `${words}: ${revision.status_message}` : words;
}

function waitingLabel(source: StatusInput["source"]): string {
  if (source === "internal_container") return "Waiting for first image";
  if (source === "internal_source") return "Waiting for first upload";
  return "Waiting for first revision";
}

/**
 * The badge for a deployment. `latest` and `active` are its latest and active revisions when it
 * has them (null when the ids are null or not loaded yet).
 */
export function deploymentDisplayStatus(
  d: StatusInput,
  latest: RevisionSummary | null,
  activeRevision: RevisionSummary | null,
  health: HealthInput | null = null,
): DisplayStatus {
  const active = activeRevision ?? (latest && latest.id === d.active_revision_id ? latest : null);
  const base = { pulse: false, reason: null, note: null };
  const running = active
    ? d.runtime === "dry_run"
      ? `revision #${active.number} still recorded (dry run)`
      : `revision #${active.number} still live`
    : null;
  if (d.status === "AWAITING_DELETE")
    return { ...base, kind: "deleting", label: "Deleting", tone: "red", pulse: true };
  // UNKNOWN with a revision running on Hangar's cluster means its watch saw it unhealthy (5.7);
  // a listener's may also be offline, so only its own report says unhealthy.
  if (
    d.status === "UNKNOWN" &&
    d.active_revision_id &&
    (health?.healthy === false ||
      (!health && !d.source_config?.listener_id && d.runtime === "kubernetes"))
  )
    return {
      ...base,
      kind: "unhealthy",
      label: "Unhealthy",
      tone: "red",
      pulse: true,
      reason: health?.reason ?? null,
    };
  if (d.status === "UNKNOWN") return { ...base, kind: "unknown", label: "Unknown", tone: "zinc" };
  if (!d.latest_revision_id)
    return { ...base, kind: "waiting", label: waitingLabel(d.source), tone: "zinc" };
  if (latest && !isTerminal(latest.status))
    return {
      ...base,
      kind: "deploying",
      label: `Deploying #${latest.number}`,
      tone: "blue",
      pulse: true,
      note: latest.id === active?.id ? null : running,
    };
  if (latest && isFailedRevision(latest.status))
    return {
      ...base,
      kind: "failed",
      label: "Failed",
      tone: "red",
      reason: `Revision #${latest.number} ${failureReason(latest)}`,
      note: running,
    };
  if (active && d.active_revision_id)
    return d.runtime === "dry_run"
      ? { ...base, kind: "dry_run", label: `Dry run, revision #${active.number}`, tone: "amber" }
      : { ...base, kind: "live", label: `Live, revision #${active.number}`, tone: "green" };
  if (latest?.status === "INTERRUPTED")
    return { ...base, kind: "interrupted", label: `Interrupted #${latest.number}`, tone: "amber" };
  if (!latest) return { ...base, kind: "unknown", label: "Checking…", tone: "zinc" };
  return { ...base, kind: "idle", label: "Not running", tone: "zinc" };
}
