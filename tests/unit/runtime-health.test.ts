import type { V1Deployment, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/lib/runtime-summary";
import { observe, podProblem } from "../../src/server/cluster/health";
import { levelOf, messageOf } from "../../src/server/services/runtime/log-level";

// The judgement of what runs (cluster/health.ts) and the reading of a line's level.

const labels = (component: string, revision?: number) => ({
  "app.kubernetes.io/component": component,
  ...(revision === undefined ? {} : { "hangar.dev/revision": String(revision) }),
});
const deployment = (component: string, replicas: number): V1Deployment => ({
  metadata: { name: `agent-${component}`, labels: labels(component) },
  spec: { replicas, selector: {}, template: {} },
});
const pod = (
  name: string,
  component: string,
  revision: number | undefined,
  status: V1Pod["status"],
): V1Pod => ({
  metadata: { name, labels: labels(component, revision) },
  status,
});
const running = (restartCount = 0, last?: string): V1Pod["status"] => ({
  phase: "Running",
  containerStatuses: [
    {
      name: "server",
      image: "i",
      imageID: "",
      ready: true,
      restartCount,
      ...(last
        ? {
            lastState: {
              terminated: {
                reason: last,
                exitCode: 137,
                finishedAt: new Date("2026-11-26T10:00:00Z"),
              },
            },
          }
        : {}),
    },
  ],
});

describe("observe", () => {
  it("counts only the active revision's pods (and the cache's, which no revision owns)", () => {
    const o = observe(
      {
        deployments: [deployment("server", 2), deployment("redis", 1)],
        pods: [
          pod("a", "server", 3, running()),
          pod("b", "server", 3, running(2, "OOMKilled")),
          pod("old", "server", 2, running()),
          pod("r", "redis", undefined, running()),
        ],
        events: [],
      },
      3,
    );
    expect(o).toMatchObject({
      healthy: true,
      reason: null,
      ready_replicas: 3,
      desired_replicas: 3,
      restarts: 2,
    });
    expect(o.last_termination).toMatchObject({ reason: "OOMKilled", exit_code: 137, pod: "b" });
    expect(summarize(o, Date.parse("2026-11-26T10:04:00Z"))).toBe(
      "3/3 ready · 2 restarts · OOMKilled 4 min ago",
    );
  });

  it("names Kubernetes' reason when not ready, else how many are", () => {
    const crashing = pod("a", "server", 1, {
      phase: "Running",
      containerStatuses: [
        {
          name: "server",
          image: "i",
          imageID: "",
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: "CrashLoopBackOff" } },
          lastState: { terminated: { reason: "OOMKilled", exitCode: 137 } },
        },
      ],
    });
    expect(podProblem(crashing)).toBe("OOMKilled (CrashLoopBackOff)");
    const view = { deployments: [deployment("server", 2)], events: [] };
    expect(observe({ ...view, pods: [crashing, pod("b", "server", 1, running())] }, 1).reason).toBe(
      "OOMKilled (CrashLoopBackOff)",
    );
    expect(observe({ ...view, pods: [pod("b", "server", 1, running())] }, 1)).toMatchObject({
      healthy: false,
      reason: "1/2 replicas ready",
    });
    expect(observe({ deployments: [], pods: [], events: [] }, 1).reason).toBe(
      "Its workloads are not in the cluster",
    );
    expect(podProblem(pod("e", "server", 1, { phase: "Failed", reason: "Evicted" }))).toBe(
      "Evicted",
    );
    expect(
      podProblem(
        pod("p", "server", 1, {
          phase: "Pending",
          conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable" }],
        }),
      ),
    ).toBe("Unschedulable");
  });
});

describe("log levels", () => {
  it.each([
    ["ERROR graph failed", "ERROR"],
    ["2026-11-26 10:00:00 [warning] slow", "WARNING"],
    ['{"level": "critical", "event": "down"}', "CRITICAL"],
    ['{"levelname": "DEBUG", "message": "x"}', "DEBUG"],
    ["plain text", "INFO"],
    [`${"request handled in 12 ms for tenant acme ".repeat(2)}without an error`, "INFO"],
  ])("%s is %s", (line, level) => expect(levelOf(line)).toBe(level));

  it("takes a JSON line's message", () => {
    expect(messageOf('{"level": "info", "event": "queue is slow"}')).toBe("queue is slow");
    expect(messageOf("not json {")).toBe("not json {");
  });
});
