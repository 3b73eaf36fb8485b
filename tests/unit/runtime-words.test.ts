import { describe, expect, it } from "vitest";
import {
  componentsLine,
  eventMessage,
  plainEvent,
  plainReason,
  terminationWords,
} from "../../src/lib/runtime-words";
import {
  deploymentDisplayStatus,
  type RevisionSummary,
  type StatusInput,
} from "../../src/schemas/deployment-status";

// Kubernetes' health words in plain words: the one function the header, the list, the Status
// field and Running share.

const unhealthy = (
  reason: string,
  last: { reason: string; exit_code: number | null } | null,
  restarts = 6,
) => ({
  healthy: false,
  reason,
  restarts,
  components: [],
  last_termination: last ? { ...last, at: null, pod: "agent-0", container: "server" } : null,
});

describe("plainReason", () => {
  it("says a crash loop once, with the exit in words and the restarts", () => {
    expect(
      plainReason(
        unhealthy("OOMKilled (CrashLoopBackOff)", { reason: "OOMKilled", exit_code: 137 }),
      ),
    ).toBe("Crashing: out of memory, exit 137 — 6 restarts");
    expect(plainReason(unhealthy("CrashLoopBackOff", { reason: "Error", exit_code: 1 }, 1))).toBe(
      "Crashing: error, exit 1 — 1 restart",
    );
    expect(plainReason(unhealthy("CrashLoopBackOff", { reason: "Error", exit_code: 139 }, 2))).toBe(
      "Crashing: segmentation fault, exit 139 — 2 restarts",
    );
    expect(plainReason(unhealthy("CrashLoopBackOff", null, 0))).toBe("Crashing");
  });

  it("names image pulls, scheduling, evictions and replica counts in words", () => {
    expect(plainReason(unhealthy("ImagePullBackOff", null, 0))).toBe(
      "Cannot pull the image: Kubernetes keeps retrying",
    );
    expect(plainReason(unhealthy("ErrImagePull", null, 0))).toBe("Cannot pull the image");
    expect(plainReason(unhealthy("Unschedulable", null, 0))).toBe(
      "Waiting for a node: no node can take its pods",
    );
    expect(plainReason(unhealthy("Evicted", null, 0))).toBe("Evicted: its node was drained");
    expect(plainReason(unhealthy("1/2 replicas ready", null, 0))).toBe(
      "Not ready: 1 of 2 replicas ready",
    );
    expect(plainReason(unhealthy("Something new", null, 0))).toBe("Something new");
  });

  it("says nothing while healthy or not observed", () => {
    expect(plainReason({ ...unhealthy("x", null), healthy: true })).toBeNull();
    expect(plainReason({ ...unhealthy("x", null), healthy: null })).toBeNull();
  });
});

describe("terminationWords", () => {
  it("maps reasons and exit codes", () => {
    expect(terminationWords("OOMKilled", 137)).toBe("out of memory, exit 137");
    expect(terminationWords("Error", 143)).toBe("terminated, exit 143");
    expect(terminationWords("Error", 42)).toBe("error, exit 42");
    expect(terminationWords("Completed", 0)).toBe("exited, exit 0");
  });
});

describe("componentsLine", () => {
  it("counts the server and queue apart from the database and cache beside them", () => {
    expect(
      componentsLine([
        { component: "postgres", ready: 1, desired: 1, restarts: 0 },
        { component: "queue", ready: 1, desired: 1, restarts: 0 },
        { component: "redis", ready: 1, desired: 1, restarts: 0 },
        { component: "server", ready: 0, desired: 1, restarts: 6 },
      ]),
    ).toBe("Server 0/1 · Queue 1/1 · Postgres ready · Redis ready");
    expect(componentsLine([{ component: "redis", ready: 0, desired: 1, restarts: 0 }])).toBe(
      "Redis not ready (0/1)",
    );
  });
});

describe("plainEvent", () => {
  it("drops kubelet's pod names and uids and says the time", () => {
    expect(
      eventMessage(
        "Back-off restarting failed container redis in pod l2r-0_hangar-01a2(6f1c2d3e-1111-2222-3333-444455556666)",
      ),
    ).toBe("Back-off restarting the redis container");
    expect(eventMessage("Back-off restarting failed container")).toBe(
      "Back-off restarting the failed container",
    );
    const at = new Date(2026, 10, 29, 12, 3, 7).toISOString();
    expect(
      plainEvent({
        at,
        reason: "BackOff",
        message: "Back-off restarting failed container server in pod a_b(uid)",
        object: "Pod/a",
        count: 2,
      }),
    ).toBe("12:03:07 · Back-off restarting the server container (×2)");
  });
});

describe("deploymentDisplayStatus with health", () => {
  const d = (patch: Partial<StatusInput> = {}): StatusInput => ({
    status: "UNKNOWN",
    source: "codehost",
    runtime: "kubernetes",
    latest_revision_id: "r1",
    active_revision_id: "r1",
    ...patch,
  });
  const r1: RevisionSummary = { id: "r1", number: 1, status: "DEPLOYED", status_message: null };

  it("reads an unhealthy active revision as Unhealthy in red with the plain reason", () => {
    expect(
      deploymentDisplayStatus(d(), r1, r1, { healthy: false, reason: "Crashing: out of memory" }),
    ).toMatchObject({
      kind: "unhealthy",
      label: "Unhealthy",
      tone: "red",
      reason: "Crashing: out of memory",
    });
    // Without the runtime state at hand (a list row loading), still red, not a grey Unknown.
    expect(deploymentDisplayStatus(d(), r1, r1)).toMatchObject({ kind: "unhealthy", tone: "red" });
  });

  it("keeps a listener's UNKNOWN (maybe offline) Unknown unless its report says unhealthy", () => {
    const listener = d({ source_config: { listener_id: "l1" } });
    expect(deploymentDisplayStatus(listener, r1, r1)).toMatchObject({ kind: "unknown" });
    expect(
      deploymentDisplayStatus(listener, r1, r1, { healthy: false, reason: "Crashing" }),
    ).toMatchObject({ kind: "unhealthy" });
  });

  it("reads a READY deployment as live whatever is cached", () => {
    expect(deploymentDisplayStatus(d({ status: "READY" }), r1, r1, null)).toMatchObject({
      kind: "live",
      tone: "green",
    });
  });
});
