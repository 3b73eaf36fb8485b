import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { env } from "../../src/env";
import { waitFor, waitForRevision } from "../helpers/engine";
import { testDb } from "../helpers/fixtures";
import { listenerHarness } from "../helpers/listeners";

// Runtime logs of listener deployments (contract 14.3): Hangar asks, the listener process reads
// its own cluster (the fake Kubernetes API) with the reader Hangar uses for its own clusters and
// answers; deploy_logs and runtime.logs serve the lines as for managed clusters. Nothing is read
// or sent before a user asks; a listener answers only its own requests; offline → 503.

const db = testDb();
const h = listenerHarness();
// The dashboard's procedures run in this process: the server's idea of "offline" (3 s).
beforeAll(() => {
  env.HANGAR_LISTENER_OFFLINE_SECONDS = 3;
});

type Line = { id: string; message: string; level: string; pod: string; container: string };

const logReads = () => h.kube.requests.filter((r) => r.path.endsWith("/log")).length;
const logs = (id: string, body: unknown, key = h.tenant.keys.viewer) =>
  h.call(key, `/v1/projects/${id}/deploy_logs`, { method: "POST", body });

describe("runtime logs through a listener", () => {
  it("serves what the fake pods in the listener's cluster print, read only when asked", async () => {
    const listener = await h.createListener();
    const running = await h.runListener(listener.token);
    const d = await h.createDeployment("remote-logs", listener.id, "registry.example/remote:logs");
    const revision = await waitForRevision(d.latest_revision_id, undefined, {
      db,
      timeoutMs: 60_000,
    });
    expect(revision.status).toBe("DEPLOYED");

    h.kube.printLog("remote-logs", [
      "INFO Application startup complete",
      "ERROR graph failed: boom",
    ]);
    // Deployed and printing, nobody asked: nothing was read, nothing asked of the listener.
    expect(logReads()).toBe(0);
    expect(await db.listenerLogRequest.count()).toBe(0);
    expect(running.output()).not.toContain("log request answered");

    const res = await logs(d.id, { limit: 100, order: "desc" });
    expect(res.status, res.text).toBe(200);
    const messages = res.body.logs.map((l: Line) => l.message);
    expect(messages).toContain("ERROR graph failed: boom");
    expect(messages).toContain("INFO Application startup complete");
    expect(res.body.source).toContain(`Read by listener ${listener.compute_id}`);
    expect(res.body.pods.length).toBeGreaterThan(0);
    expect(logReads()).toBeGreaterThan(0);
    // Read once and gone: Hangar keeps no copy of the answer.
    expect(await db.listenerLogRequest.count()).toBe(0);

    // Filters as for managed clusters: level, query, replica, ascending pages.
    const errors = await logs(d.id, { level: "error" });
    expect(errors.body.logs.length).toBeGreaterThan(0);
    expect(new Set(errors.body.logs.map((l: Line) => l.level))).toEqual(new Set(["ERROR"]));
    const found = await logs(d.id, { query: "STARTUP" });
    expect(found.body.logs.every((l: Line) => l.message.includes("startup"))).toBe(true);
    const pod = res.body.pods.find((p: { component: string }) => p.component === "server").name;
    const one = await logs(d.id, { pod });
    expect(new Set(one.body.logs.map((l: Line) => l.pod))).toEqual(new Set([pod]));
    const first = await logs(d.id, { limit: 1, order: "asc" });
    const rest = await logs(d.id, { limit: 100, order: "asc", offset: first.body.next_offset });
    const all = await logs(d.id, { limit: 100, order: "asc" });
    expect([...first.body.logs, ...rest.body.logs].map((l: Line) => l.id)).toEqual(
      all.body.logs.map((l: Line) => l.id),
    );

    // Follow: the client re-asks from the newest timestamp and drops ids it has seen.
    const seen = new Set(all.body.logs.map((l: Line) => l.id));
    h.kube.printLog("remote-logs", ["INFO a new request"], { replica: 0 });
    const newest = all.body.logs.at(-1).timestamp;
    const next = await logs(d.id, { limit: 100, order: "asc", start_time: newest });
    expect(next.body.logs.filter((l: Line) => !seen.has(l.id)).map((l: Line) => l.message)).toEqual(
      ["INFO a new request"],
    );

    // The dashboard's procedure, and another workspace's caller.
    const caller = createCaller({ db, requestId: "ll", actor: h.tenant.actors.viewer });
    const read = await caller.runtime.logs({ deploymentId: d.id, query: "graph failed" });
    expect(read.logs.length).toBeGreaterThan(0);
    expect(read.logs.every((l) => l.message === "ERROR graph failed: boom")).toBe(true);
    const stranger = createCaller({ db, requestId: "ll", actor: h.stranger.actors.viewer });
    await expect(stranger.runtime.logs({ deploymentId: d.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await logs(d.id, {}, h.stranger.keys.viewer)).status).toBe(404);

    // Every answer the listener sent was asked for: one per read above (nine).
    const answered = () => running.output().split('"log request answered"').length - 1;
    await waitFor(
      async () => answered(),
      (n) => n >= 9,
      { what: "the listener's log lines" },
    );
    expect(answered()).toBe(9);

    // The listener stops: once offline, deploy_logs says so.
    await running.stop();
    await waitFor(
      () => h.call(h.tenant.keys.viewer, `/v2/listeners/${listener.id}`),
      (r) => r.body.status === "offline",
      { timeoutMs: 15_000, what: "listener offline" },
    );
    const offline = await logs(d.id, {});
    expect(offline.status).toBe(503);
    expect(offline.body.detail).toContain(
      `Listener ${listener.compute_id} (${listener.id}) is offline`,
    );
    await expect(caller.runtime.logs({ deploymentId: d.id })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: expect.stringContaining(
        `Listener ${listener.compute_id} (${listener.id}) is offline`,
      ),
    });
  });

  it("a listener answers only its own requests; no answer in time is a 503", async () => {
    const mine = await h.createListener();
    const other = await h.createListener();
    const d = await h.createDeployment("hand-logs", mine.id, "registry.example/hand:1");
    await h.deployByHand(mine.token, d.id);

    const asking = logs(d.id, { limit: 10 });
    const polled = await waitFor(
      () =>
        h.bearer(mine.token, "/v2/listener/log-requests", { replica_id: "hand", wait_seconds: 1 }),
      (r) => r.body?.log_requests?.length > 0,
      { timeoutMs: 10_000, what: "the log request" },
    );
    const request = polled.body.log_requests[0];
    expect(request).toMatchObject({ deployment_id: d.id, namespace: "agents", keep: "newest" });
    // The other listener never sees it and cannot answer it.
    const theirs = await h.bearer(other.token, "/v2/listener/log-requests", {
      replica_id: "x",
      wait_seconds: 0,
    });
    expect(theirs.body.log_requests).toEqual([]);
    const line = {
      key: new Date().toISOString().replace("Z", "000000Z"),
      id: "hand-line-1",
      pod: "hand-logs-0",
      container: "server",
      previous: false,
      text: "WARNING read by hand",
    };
    const stolen = await h.bearer(other.token, `/v2/listener/log-requests/${request.request_id}`, {
      replica_id: "x",
      lines: [line],
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body.detail).toBe(`Log request ${request.request_id} not found.`);
    const bad = await h.bearer(mine.token, `/v2/listener/log-requests/${request.request_id}`, {
      replica_id: "hand",
      lines: [{ ...line, key: "yesterday" }],
    });
    expect(bad.status).toBe(422);

    const answer = await h.bearer(mine.token, `/v2/listener/log-requests/${request.request_id}`, {
      replica_id: "hand",
      lines: [line],
    });
    expect(answer.status, answer.text).toBe(200);
    const res = await asking;
    expect(res.status, res.text).toBe(200);
    expect(res.body.logs).toEqual([
      expect.objectContaining({
        message: "WARNING read by hand",
        level: "WARNING",
        pod: "hand-logs-0",
      }),
    ]);
    const again = await h.bearer(mine.token, `/v2/listener/log-requests/${request.request_id}`, {
      replica_id: "hand",
      lines: [],
    });
    // Read once and deleted: there is nothing left to answer.
    expect(again.status).toBe(404);

    // Taken but never answered: the asker gets a 503 that says so.
    const unanswered = logs(d.id, {});
    await waitFor(
      () =>
        h.bearer(mine.token, "/v2/listener/log-requests", { replica_id: "hand", wait_seconds: 1 }),
      (r) => r.body?.log_requests?.length > 0,
      { timeoutMs: 10_000, what: "the second log request" },
    );
    const late = await unanswered;
    expect(late.status).toBe(503);
    expect(late.body.detail).toContain(
      `Listener ${mine.compute_id} (${mine.id}) did not answer within`,
    );

    // The listener's cluster could not be read: 502 with its reason.
    await h.bearer(mine.token, "/v2/listener/log-requests", {
      replica_id: "hand",
      wait_seconds: 0,
    });
    const failing = logs(d.id, {});
    const third = await waitFor(
      () =>
        h.bearer(mine.token, "/v2/listener/log-requests", { replica_id: "hand", wait_seconds: 1 }),
      (r) => r.body?.log_requests?.length > 0,
      { timeoutMs: 10_000, what: "the third log request" },
    );
    await h.bearer(
      mine.token,
      `/v2/listener/log-requests/${third.body.log_requests[0].request_id}`,
      {
        replica_id: "hand",
        error: "pods is forbidden",
      },
    );
    const failed = await failing;
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toContain("pods is forbidden");
  });

  it("what a listener sends back is served harmless: escape sequences, C1 controls", async () => {
    const mine = await h.createListener();
    const d = await h.createDeployment("harmless-logs", mine.id, "registry.example/hand:2");
    await h.deployByHand(mine.token, d.id);
    const start = Date.now();
    const line = (id: string, text: string, n: number) => ({
      key: new Date(start + n).toISOString().replace("Z", "000000Z"),
      id,
      pod: "harmless-logs-0",
      container: "server",
      previous: false,
      text,
    });
    const lines = [
      line("esc", "\x1b]0;pwned\x07\x1b[2J\x1b[3J ERROR cleared your screen\rhidden", 0),
      line("json", '{"level": "info", "message": "\\u001b]2;t\\u0007\\u009b2J from JSON"}', 1),
      line("c1", "\u009b31m eight-bit CSI \u009d0;title\u009c", 2),
    ];
    /** Plays the listener for one read: takes its request and answers `lines`. */
    const answered = async (read: () => Promise<unknown>) => {
      const asking = read();
      const polled = await waitFor(
        () =>
          h.bearer(mine.token, "/v2/listener/log-requests", {
            replica_id: "hand",
            wait_seconds: 1,
          }),
        (r) => r.body?.log_requests?.length > 0,
        { timeoutMs: 10_000, what: "the log request" },
      );
      const path = `/v2/listener/log-requests/${polled.body.log_requests[0].request_id}`;
      const answer = await h.bearer(mine.token, path, { replica_id: "hand", lines });
      expect(answer.status, answer.text).toBe(200);
      return asking;
    };
    const expected = [
      "␛]0;pwned␇␛[2J␛[3J ERROR cleared your screen␍hidden",
      "␛]2;t␇\ufffd2J from JSON",
      "\ufffd31m eight-bit CSI \ufffd0;title\ufffd",
    ];
    const res = (await answered(() => logs(d.id, { order: "asc" }))) as Awaited<
      ReturnType<typeof logs>
    >;
    expect(res.status, res.text).toBe(200);
    expect(res.body.logs.map((l: Line) => l.message)).toEqual(expected);
    expect(res.body.logs[0].level).toBe("ERROR");
    expect(res.text).not.toMatch(/\\u001b|\\u0007|\\u009b/);

    const caller = createCaller({ db, requestId: "ll", actor: h.tenant.actors.viewer });
    const read = (await answered(() =>
      caller.runtime.logs({ deploymentId: d.id, order: "asc" }),
    )) as Awaited<ReturnType<typeof caller.runtime.logs>>;
    expect(read.logs.map((l) => l.message)).toEqual(expected);
  });
});

// Issue 32, finding 6: a listener's deploy reports count against the revision's log cap as a
// build's output does (HANGAR_BUILD_LOG_MAX_BYTES, 4 MiB by default); past it one line says how
// much was not kept, later reports add nothing, and the final status line still lands.
describe("a listener's deploy reports", () => {
  it("keep at most the revision's cap; one line says what was not kept", async () => {
    const mine = await h.createListener();
    const d = await h.createDeployment("flooding-reports", mine.id, "registry.example/hand:3");
    const work = await waitFor(
      () => h.bearer(mine.token, "/v2/listener/work", { replica_id: "hand", wait_seconds: 1 }),
      (r) => r.body?.work?.deployment_id === d.id,
      { timeoutMs: 60_000, what: "work for the hand-played listener" },
    );
    const revisionId: string = work.body.work.revision_id;
    const report = async (report_id: string, lines: string[], status?: string) => {
      const res = await h.bearer(mine.token, `/v2/listener/revisions/${revisionId}/reports`, {
        replica_id: "hand",
        report_id,
        lines,
        ...(status ? { status } : {}),
      });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    };
    // Five reports of 500 lines of 2,000 bytes (each body under the 1 MiB request cap): 5 MB.
    for (let n = 0; n < 5; n++)
      await report(
        `flood-${n}`,
        Array.from({ length: 500 }, () => String(n).repeat(2000)),
      );
    await report("late", ["a line after the cap"]);
    await report("done", [], "DEPLOYED");

    const rows = await db.revisionLog.findMany({
      where: { revisionId, stream: "deploy" },
      orderBy: { seq: "asc" },
    });
    const marks = rows.filter((r) => r.line.includes("of output were not kept"));
    expect(marks).toHaveLength(1);
    expect(marks[0]!.line).toMatch(
      /^… [\d,]+ more lines \([\d,]+ bytes\) of output were not kept: a revision's deploy log keeps at most 20,000 lines and 4,194,304 bytes \(HANGAR_BUILD_LOG_MAX_LINES, HANGAR_BUILD_LOG_MAX_BYTES\)\. Later lines are not kept either; the deploy went on\.$/,
    );
    const markAt = rows.indexOf(marks[0]!);
    const kept = rows.slice(0, markAt);
    expect(kept.reduce((sum, r) => sum + Buffer.byteLength(r.line), 0)).toBeLessThanOrEqual(
      4_194_304,
    );
    expect(kept.filter((r) => r.line === "4".repeat(2000)).length).toBeGreaterThan(0);
    expect(rows.some((r) => r.line === "a line after the cap")).toBe(false);
    // After the mark only the final status line: the revision still went live.
    expect(rows.slice(markAt + 1).map((r) => r.line)).toEqual([
      expect.stringMatching(/^Revision 1 is running on Kubernetes/),
    ]);
    expect(await waitForRevision(revisionId, ["DEPLOYED"])).toMatchObject({ status: "DEPLOYED" });
  });
});
