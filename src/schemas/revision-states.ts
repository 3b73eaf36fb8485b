import type { RevisionStatus } from "./revisions";

// A revision's lifecycle (contract 6) as data: which moves are allowed, which states are final.
// Shared by the engine, the services and the dashboard, so none of them keeps its own list.

/** Every allowed move. A status with no moves is terminal. */
export const REVISION_TRANSITIONS: Record<RevisionStatus, readonly RevisionStatus[]> = {
  CREATING: ["QUEUED", "CREATE_FAILED", "INTERRUPTED"],
  // The source step: resolve the commit and check the graph config, or fail saying which.
  QUEUED: ["AWAITING_BUILD", "CREATE_FAILED", "SKIPPED", "INTERRUPTED"],
  // Container sources have nothing to build and go straight to AWAITING_DEPLOY.
  AWAITING_BUILD: ["BUILDING", "AWAITING_DEPLOY", "BUILD_FAILED", "SKIPPED", "INTERRUPTED"],
  BUILDING: ["AWAITING_DEPLOY", "BUILD_FAILED", "INTERRUPTED"],
  AWAITING_DEPLOY: ["DEPLOYING", "DEPLOY_FAILED", "INTERRUPTED"],
  DEPLOYING: ["DEPLOYED", "DEPLOY_FAILED", "INTERRUPTED"],
  CREATE_FAILED: [],
  BUILD_FAILED: [],
  DEPLOY_FAILED: [],
  DEPLOYED: [],
  SKIPPED: [],
  INTERRUPTED: [],
  UNKNOWN: [],
};

export const isTerminal = (status: RevisionStatus) => REVISION_TRANSITIONS[status].length === 0;

export const TERMINAL_STATUSES = (Object.keys(REVISION_TRANSITIONS) as RevisionStatus[]).filter(
  isTerminal,
);
export const ACTIVE_STATUSES = (Object.keys(REVISION_TRANSITIONS) as RevisionStatus[]).filter(
  (s) => !isTerminal(s),
);

/** Admitted and not finished: at most one revision per deployment is in one of these. */
export const IN_FLIGHT_STATUSES: RevisionStatus[] = [
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
];

/** The failure a status ends in when its step cannot finish. */
export function failureOf(status: RevisionStatus): RevisionStatus | null {
  switch (status) {
    case "CREATING":
    case "QUEUED":
      return "CREATE_FAILED";
    case "AWAITING_BUILD":
    case "BUILDING":
      return "BUILD_FAILED";
    case "AWAITING_DEPLOY":
    case "DEPLOYING":
      return "DEPLOY_FAILED";
    default:
      return null;
  }
}

export const canTransition = (from: RevisionStatus, to: RevisionStatus) =>
  REVISION_TRANSITIONS[from].includes(to);
