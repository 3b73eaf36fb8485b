import { describe, expect, it } from "vitest";
import { waitFor, waitForRevision } from "../helpers/engine";
import { openEventStream } from "../helpers/event-stream";
import { testDb } from "../helpers/fixtures";
import { listenerHarness } from "../helpers/listeners";

// Issue 34: a listener deployment's Logs tab streams too (contract 14.3, section 11's
// logs/stream): Hangar asks the listener to follow its own cluster's log for as long as the
// viewer's stream is open; the listener posts the lines as they are printed; the follow ends in
// the listener's cluster once the viewer goes. A listener that does not follow gets the 409 the
// dashboard falls back on (reading again every 2 s).

const db = testDb();
const h = listenerHarness();

type LogEvent = { message: string; level: string; pod: string; container: string };

const streamUrl = (id: string) => `${h.server.url}/v2/deployments/${id}/logs/stream`;
const followRows = async (deploymentId: string) =>
  (await db.listenerLogRequest.findMany({ where: { deploymentId } })).filter(
    (r) => (r.query as { follow?: boolean }).follow === true,
  );

describe("a listener deployment's logs, followed", () => {
  it("stream what the listener's cluster prints while the viewer stays, and stop there when it goes", async () => {
    const listener = await h.createListener();
    const running = await h.runListener(listener.token);
    const d = await h.createDeployment("follow-logs", listener.id, "registry.example/follow:1");
    const revision = await waitForRevision(d.latest_revision_id, undefined, {
      db,
      timeoutMs: 60_000,
    });
    expect(revision.status).toBe("DEPLOYED");
    // The listener's log poll says it follows: Hangar will stream, not poll.
    await waitFor(
      () => db.listener.findUniqueOrThrow({ where: { id: listener.id } }),
      (l) => l.followsLogsAt !== null,
      { timeoutMs: 20_000, what: "the listener saying it follows" },
    );
    // Nobody watches: nothing is followed in the listener's cluster.
    expect(h.kube.podLogFollowed("follow-logs")).toBe(false);

    const stream = await openEventStream(streamUrl(d.id), { "x-api-key": h.tenant.keys.viewer });
    try {
      await waitFor(
        async () => h.kube.podLogFollowed("follow-logs"),
        (followed) => followed,
        { timeoutMs: 20_000, what: "the listener following its cluster's log" },
      );
      expect(await followRows(d.id)).toHaveLength(1);
      h.kube.printLog("follow-logs", [
        "INFO first streamed line",
        "ERROR boom \u001b]0;owned\u0007 \u001b[2J done",
      ]);
      const seen = await waitFor(
        async () =>
          stream
            .received()
            .filter((e) => e.event === "log")
            .map((e) => e.data as LogEvent),
        (lines) => lines.some((l) => l.level === "ERROR"),
        { timeoutMs: 20_000, what: "both lines, streamed" },
      );
      expect(seen[0]).toMatchObject({ message: "INFO first streamed line", level: "INFO" });
      const second = seen.find((l) => l.level === "ERROR")!;
      expect(second.level).toBe("ERROR");
      expect(second.message).toContain("boom");
      // What the listener sends is made harmless by Hangar before it reaches the viewer.
      expect(second.message).not.toContain("\u001b");
      expect(second.message).not.toContain("\u0007");
    } finally {
      stream.close();
    }
    // The viewer left: the request goes, the listener's next post is refused, its follow ends.
    await waitFor(
      async () => ({
        rows: await followRows(d.id),
        followed: h.kube.podLogFollowed("follow-logs"),
      }),
      (s) => s.rows.length === 0 && !s.followed,
      { timeoutMs: 20_000, what: "the follow ending in the listener's cluster" },
    );
    expect(running.output()).toContain("log follow ended");
    expect(await db.listenerLogChunk.count()).toBe(0);

    // Another workspace's viewer: 404 as for every route, and nothing asked of the listener.
    const theirs = await fetch(streamUrl(d.id), {
      headers: { "x-api-key": h.stranger.keys.viewer },
    });
    expect(theirs.status).toBe(404);
    await theirs.body?.cancel();
    expect(await followRows(d.id)).toHaveLength(0);
  });

  it("is refused (409) for a listener that does not follow; the lines route's refusals", async () => {
    const mine = await h.createListener();
    const other = await h.createListener();
    const d = await h.createDeployment("hand-follow", mine.id, "registry.example/hand:2");
    await h.deployByHand(mine.token, d.id);
    // An older listener's poll (no `follow`): the dashboard is told to read again every 2 s.
    await h.bearer(mine.token, "/v2/listener/log-requests", { replica_id: "old", wait_seconds: 0 });
    const refused = await fetch(streamUrl(d.id), {
      headers: { "x-api-key": h.tenant.keys.viewer },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain("does not follow logs");

    // A replica that follows says so; then the stream asks it.
    await h.bearer(mine.token, "/v2/listener/log-requests", {
      replica_id: "hand",
      wait_seconds: 0,
      follow: true,
    });
    const stream = await openEventStream(streamUrl(d.id), { "x-api-key": h.tenant.keys.viewer });
    try {
      // The old replica is never handed a follow.
      const old = await h.bearer(mine.token, "/v2/listener/log-requests", {
        replica_id: "old",
        wait_seconds: 1,
      });
      expect(old.body.log_requests).toEqual([]);
      const polled = await waitFor(
        () =>
          h.bearer(mine.token, "/v2/listener/log-requests", {
            replica_id: "hand",
            wait_seconds: 1,
            follow: true,
          }),
        (r) => r.body?.log_requests?.length > 0,
        { timeoutMs: 10_000, what: "the follow request" },
      );
      const request = polled.body.log_requests[0];
      expect(request).toMatchObject({
        deployment_id: d.id,
        namespace: "agents",
        follow: true,
        keep: "oldest",
        tail_lines: null,
      });
      const path = `/v2/listener/log-requests/${request.request_id}/lines`;
      const line = {
        key: new Date().toISOString().replace("Z", "000000Z"),
        id: "followed-1",
        pod: "hand-follow-0",
        container: "server",
        previous: false,
        text: "WARNING followed by hand",
      };
      const stolen = await h.bearer(other.token, path, { replica_id: "hand", lines: [line] });
      expect(stolen.status).toBe(404);
      expect(stolen.body.detail).toBe(`Log request ${request.request_id} not found.`);
      const elsewhere = await h.bearer(mine.token, path, { replica_id: "old", lines: [line] });
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.detail).toContain("stop following it");
      const bad = await h.bearer(mine.token, path, {
        replica_id: "hand",
        lines: [{ ...line, key: "now" }],
      });
      expect(bad.status).toBe(422);
      const tooMany = await h.bearer(mine.token, path, {
        replica_id: "hand",
        lines: Array.from({ length: 1001 }, (_, i) => ({ ...line, id: `l-${i}` })),
      });
      expect(tooMany.status).toBe(422);

      const sent = await h.bearer(mine.token, path, {
        replica_id: "hand",
        lines: [line],
        dropped: 3,
      });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body).toEqual({ request_id: request.request_id, following: true });
      expect((await stream.next("log")).data).toMatchObject({
        message: "WARNING followed by hand",
        level: "WARNING",
        pod: "hand-follow-0",
      });
      expect((await stream.next("dropped")).data).toEqual({ count: 3 });
      // The request stays while its viewer does.
      expect(await followRows(d.id)).toHaveLength(1);

      stream.close();
      const gone = await waitFor(
        () => h.bearer(mine.token, path, { replica_id: "hand", lines: [] }),
        (r) => r.status !== 200,
        { timeoutMs: 10_000, what: "the follow ending with its viewer" },
      );
      expect(gone.status).toBe(404);
    } finally {
      stream.close();
    }
  });
});
