import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/server/auth/actor";
import { createCaller } from "../../src/server/api/root";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { createDeploymentOverHttp, validDeployment } from "../helpers/deployments";
import { api } from "../helpers/http";
import { sdkRun } from "../helpers/tracing";

// The dashboard's tracing.* procedures on the runs the SDK stored over HTTP: the projects list,
// a deployment's project, runs with filters and a cursor, a trace in tree order, one run, stats,
// feedback read and given (editors, not viewers); another workspace's objects are NOT_FOUND.

let tenant: Tenant;
let other: Tenant;
let deployment: { id: string; name: string };
let projectId: string;
const roots: ReturnType<typeof sdkRun>[] = [];
let child: ReturnType<typeof sdkRun>;
let grandchild: ReturnType<typeof sdkRun>;

const caller = (actor: Actor) => createCaller({ db: testDb(), requestId: "trpc", actor });

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  deployment = await createDeploymentOverHttp(
    tenant.keys.editor,
    validDeployment("internal_container"),
  );
  // Five traces, newest last: "answer-0".."answer-4"; answer-3 failed, answer-4 is pending.
  const now = Date.now();
  for (let i = 0; i < 5; i++) {
    const start = now - (10 - i) * 60_000;
    roots.push(
      sdkRun(
        {
          session_name: deployment.name,
          name: `answer-${i}`,
          ...(i < 4 ? { end_time: start + 1000 * (i + 1) } : {}),
          ...(i === 3 ? { error: "RuntimeError: the tool failed\nTraceback ..." } : {}),
          outputs: i < 4 ? { usage_metadata: { input_tokens: 3, output_tokens: 4 } } : undefined,
        },
        undefined,
        new Date(start),
      ),
    );
  }
  child = sdkRun(
    { session_name: deployment.name, name: "retrieve", run_type: "retriever" },
    roots[0],
    new Date(now - 10 * 60_000 + 100),
  );
  grandchild = sdkRun(
    { session_name: deployment.name, name: "embed", run_type: "embedding" },
    child,
    new Date(now - 10 * 60_000 + 200),
  );
  const res = await api("/api/v1/runs/batch", {
    key: tenant.keys.editor,
    method: "POST",
    body: { post: [...roots, grandchild, child] },
  });
  expect(res.status).toBe(202);
  const feedback = await api("/api/v1/feedback", {
    key: tenant.keys.editor,
    method: "POST",
    body: { run_id: roots[0]!.id, key: "correctness", score: 1, comment: "right" },
  });
  expect(feedback.status).toBe(200);
  projectId = (await caller(tenant.actors.viewer).tracing.deploymentProject({
    deploymentId: deployment.id,
  }))!.id;
});

describe("tRPC tracing", () => {
  it("lists the workspace's projects with their last day and deployment", async () => {
    const { projects } = await caller(tenant.actors.viewer).tracing.projects();
    expect(projects.find((p) => p.id === projectId)).toEqual({
      id: projectId,
      name: deployment.name,
      deployment: { id: deployment.id, name: deployment.name },
      traces_24h: 5,
      errors_24h: 1,
      last_run_time: expect.stringMatching(/Z$/),
    });
    const theirs = await caller(other.actors.viewer).tracing.projects();
    expect(theirs.projects.map((p) => p.id)).not.toContain(projectId);
  });

  it("pages a project's traces newest first, and filters them", async () => {
    const viewer = caller(tenant.actors.viewer);
    const first = await viewer.tracing.runs({ projectId, limit: 3 });
    expect(first.runs.map((r) => r.name)).toEqual(["answer-4", "answer-3", "answer-2"]);
    expect(first.runs[0]).toMatchObject({ status: "pending", latency: null });
    expect(first.runs[1]).toMatchObject({
      status: "error",
      error_preview: "RuntimeError: the tool failed",
      latency: 4,
      total_tokens: 7,
    });
    const second = await viewer.tracing.runs({ projectId, limit: 3, cursor: first.next });
    expect(second.runs.map((r) => r.name)).toEqual(["answer-1", "answer-0"]);
    expect(second.next).toBeNull();

    const errors = await viewer.tracing.runs({ projectId, status: "error" });
    expect(errors.runs.map((r) => r.name)).toEqual(["answer-3"]);
    const pending = await viewer.tracing.runs({ projectId, status: "pending" });
    expect(pending.runs.map((r) => r.name)).toEqual(["answer-4"]);
    const search = await viewer.tracing.runs({ projectId, search: "WER-1" });
    expect(search.runs.map((r) => r.name)).toEqual(["answer-1"]);
    const literal = await viewer.tracing.runs({ projectId, search: "answer%" });
    expect(literal.runs).toEqual([]);
    const all = await viewer.tracing.runs({ projectId, rootOnly: false, runType: "embedding" });
    expect(all.runs.map((r) => r.name)).toEqual(["embed"]);
    const window = await viewer.tracing.runs({
      projectId,
      startTime: new Date(roots[3]!.start_time).toISOString(),
    });
    expect(window.runs.map((r) => r.name)).toEqual(["answer-4", "answer-3"]);
  });

  it("answers a trace's runs in tree order with their depth, and one run whole", async () => {
    const viewer = caller(tenant.actors.viewer);
    const trace = await viewer.tracing.traceRuns({ traceId: roots[0]!.id });
    expect(trace.truncated).toBe(false);
    expect(trace.runs.map((r) => [r.name, r.depth])).toEqual([
      ["answer-0", 0],
      ["retrieve", 1],
      ["embed", 2],
    ]);
    const run = await viewer.tracing.run({ id: grandchild.id });
    expect(run).toMatchObject({
      id: grandchild.id,
      inputs: { question: "hi" },
      parent_run_ids: [roots[0]!.id, child.id],
    });
    const feedback = await viewer.tracing.feedback({ id: roots[0]!.id });
    expect(feedback).toMatchObject([{ key: "correctness", score: 1, comment: "right" }]);
  });

  it("pages a trace of more than 1,000 runs, the whole trace's count on every page", async () => {
    // A root and 1,049 children, each a millisecond after the last, in a project of its own.
    const start = Date.now() - 30 * 60_000;
    const root = sdkRun(
      { session_name: "wide-trace", name: "fan-out" },
      undefined,
      new Date(start),
    );
    const children = Array.from({ length: 1049 }, (_, i) =>
      sdkRun(
        { session_name: "wide-trace", name: `leaf-${i}`, end_time: start + i + 2 },
        root,
        new Date(start + i + 1),
      ),
    );
    const res = await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: [root, ...children] },
    });
    expect(res.status).toBe(202);

    const viewer = caller(tenant.actors.viewer);
    const first = await viewer.tracing.traceRuns({ traceId: root.id });
    expect(first).toMatchObject({ run_count: 1050, truncated: true, root_run_id: root.id });
    expect(first.runs).toHaveLength(1000);
    expect(first.runs.slice(0, 2).map((r) => r.name)).toEqual(["fan-out", "leaf-0"]);
    const second = await viewer.tracing.traceRuns({ traceId: root.id, cursor: first.cursors.next });
    expect(second).toMatchObject({ run_count: 1050, truncated: false, cursors: { next: null } });
    expect(second.runs.map((r) => r.name)).toEqual(
      Array.from({ length: 50 }, (_, i) => `leaf-${999 + i}`),
    );
    await expect(
      viewer.tracing.traceRuns({ traceId: root.id, cursor: "not-a-cursor" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    // Another workspace pages nothing of it.
    await expect(
      caller(other.actors.admin).tracing.traceRuns({
        traceId: root.id,
        cursor: first.cursors.next,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers the project's stats over root runs", async () => {
    const stats = await caller(tenant.actors.viewer).tracing.stats({
      projectId,
      startTime: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(stats).toMatchObject({
      run_count: 5,
      error_count: 1,
      interval: "minute",
      latency_p50: 2.5,
      total_tokens: 28,
    });
    expect(stats.buckets.reduce((n, b) => n + b.run_count, 0)).toBe(5);
  });

  it("records feedback an editor gives on a run, as the SDK's POST /feedback stores it", async () => {
    const given = await caller(tenant.actors.editor).tracing.createFeedback({
      runId: child.id,
      score: 0,
      comment: "  retrieved the wrong page  ",
    });
    expect(given).toMatchObject({
      run_id: child.id,
      trace_id: roots[0]!.id,
      session_id: projectId,
      key: "user_score",
      score: 0,
      comment: "retrieved the wrong page",
      feedback_source: { type: "app", metadata: { user_id: tenant.userIds.editor } },
    });
    const custom = await caller(tenant.actors.admin).tracing.createFeedback({
      runId: child.id,
      key: "relevance",
      score: 0.75,
    });
    expect(custom).toMatchObject({ key: "relevance", score: 0.75, comment: null });
    // The dashboard reads it back, and so does the SDK's door.
    const listed = await caller(tenant.actors.viewer).tracing.feedback({ id: child.id });
    expect(listed.map((f) => [f.key, f.score])).toEqual([
      ["relevance", 0.75],
      ["user_score", 0],
    ]);
    const rest = await api(`/api/v1/feedback/${given.id}`, { key: tenant.keys.viewer });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(given);
  });

  it("refuses feedback from viewers, without a score or comment, and on runs it cannot see", async () => {
    await expect(
      caller(tenant.actors.viewer).tracing.createFeedback({ runId: child.id, score: 1 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller(tenant.actors.editor).tracing.createFeedback({ runId: child.id, comment: " " }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Another workspace's run, and a run stored nowhere (the SDK may send those; the dashboard
    // only gives feedback on runs it shows).
    for (const runId of [roots[1]!.id, randomUUID()])
      await expect(
        caller(other.actors.admin).tracing.createFeedback({ runId, score: 1 }),
      ).rejects.toMatchObject({ code: "NOT_FOUND", message: `Run ${runId} not found` });
    // Nothing was stored by the refusals.
    expect(await caller(tenant.actors.viewer).tracing.feedback({ id: roots[1]!.id })).toEqual([]);
  });

  it("answers NOT_FOUND for another workspace's project, deployment, run and trace", async () => {
    const stranger = caller(other.actors.admin);
    const refusals = [
      () => stranger.tracing.project({ id: projectId }),
      () => stranger.tracing.deploymentProject({ deploymentId: deployment.id }),
      () => stranger.tracing.runs({ projectId }),
      () => stranger.tracing.run({ id: roots[0]!.id }),
      () => stranger.tracing.traceRuns({ traceId: roots[0]!.id }),
      () => stranger.tracing.stats({ projectId, startTime: new Date(0).toISOString() }),
      () => caller(tenant.actors.viewer).tracing.traceRuns({ traceId: randomUUID() }),
    ];
    for (const refusal of refusals)
      await expect(refusal()).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Feedback is the caller's workspace's only: none of theirs on this run.
    expect(await stranger.tracing.feedback({ id: roots[0]!.id })).toEqual([]);
  });
});
