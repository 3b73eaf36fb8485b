import { describe, expect, it } from "vitest";
import type { RevisionStatus } from "../../src/generated/prisma/enums";
import { revisionStatuses } from "../../src/schemas/revisions";
import {
  ACTIVE_STATUSES,
  canTransition,
  failureOf,
  IN_FLIGHT_STATUSES,
  isTerminal,
  REVISION_TRANSITIONS,
  TERMINAL_STATUSES,
} from "../../src/schemas/revision-states";

const all = [...revisionStatuses] as RevisionStatus[];

describe("revision state machine", () => {
  it("covers every status of the contract, and only those", () => {
    expect(Object.keys(REVISION_TRANSITIONS).sort()).toEqual([...all].sort());
    for (const targets of Object.values(REVISION_TRANSITIONS)) {
      for (const to of targets) expect(all).toContain(to);
    }
  });

  it("walks the happy path QUEUED -> ... -> DEPLOYED, building or not", () => {
    const built: RevisionStatus[] = [
      "QUEUED",
      "AWAITING_BUILD",
      "BUILDING",
      "AWAITING_DEPLOY",
      "DEPLOYING",
      "DEPLOYED",
    ];
    for (let i = 1; i < built.length; i++)
      expect(canTransition(built[i - 1]!, built[i]!)).toBe(true);
    expect(canTransition("AWAITING_BUILD", "AWAITING_DEPLOY")).toBe(true);
  });

  it("makes the final statuses terminal and lets nothing leave them", () => {
    expect(TERMINAL_STATUSES.sort()).toEqual(
      [
        "BUILD_FAILED",
        "CREATE_FAILED",
        "DEPLOYED",
        "DEPLOY_FAILED",
        "INTERRUPTED",
        "SKIPPED",
        "UNKNOWN",
      ].sort(),
    );
    for (const from of TERMINAL_STATUSES) {
      for (const to of all) expect(canTransition(from, to), `${from} -> ${to}`).toBe(false);
    }
  });

  it("lets a user interrupt every unfinished status, and only those", () => {
    for (const status of all)
      expect(canTransition(status, "INTERRUPTED")).toBe(!isTerminal(status));
    expect([...ACTIVE_STATUSES, ...TERMINAL_STATUSES].sort()).toEqual([...all].sort());
  });

  it("skips only before the build starts", () => {
    const skippable = all.filter((s) => canTransition(s, "SKIPPED"));
    expect(skippable.sort()).toEqual(["AWAITING_BUILD", "QUEUED"]);
  });

  it("refuses going backwards or jumping ahead", () => {
    expect(canTransition("DEPLOYING", "BUILDING")).toBe(false);
    expect(canTransition("QUEUED", "DEPLOYED")).toBe(false);
    expect(canTransition("BUILDING", "SKIPPED")).toBe(false);
    expect(canTransition("QUEUED", "BUILD_FAILED")).toBe(false);
  });

  it("maps each step to the failure it ends in, and that move is allowed", () => {
    expect(failureOf("QUEUED")).toBe("CREATE_FAILED");
    expect(failureOf("BUILDING")).toBe("BUILD_FAILED");
    expect(failureOf("DEPLOYING")).toBe("DEPLOY_FAILED");
    for (const status of ACTIVE_STATUSES) {
      const failure = failureOf(status)!;
      expect(failure, status).toBeTruthy();
      expect(canTransition(status, failure), `${status} -> ${failure}`).toBe(true);
    }
    for (const status of TERMINAL_STATUSES) expect(failureOf(status)).toBeNull();
  });

  it("counts admitted, unfinished revisions as in flight", () => {
    expect(IN_FLIGHT_STATUSES).toEqual([
      "AWAITING_BUILD",
      "BUILDING",
      "AWAITING_DEPLOY",
      "DEPLOYING",
    ]);
    for (const status of IN_FLIGHT_STATUSES) expect(isTerminal(status)).toBe(false);
  });
});
