import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import { appendLogs } from "../../src/server/services/revisions/logs-append";
import { createCodehostDeployment, createIntegration } from "../helpers/codehost";
import { engineGate, waitForRevision } from "../helpers/engine";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { serverSentEvents, type RawEvent } from "../helpers/event-stream";
import { createDeployment, uniqueName } from "../helpers/revision-fixtures";

// A revision's log: pages over REST and tRPC, and the live server-sent event stream.

let tenant: Tenant;
let host: CodehostServer;
let integrationId: string;

beforeAll(async () => {
  tenant = await createTenant();
  host = await startCodehostServer();
  integrationId = await createIntegration(tenant.keys.admin, host);
});
afterAll(() => host.stop());

const logsPath = (d: string, r: string) => `/v2/deployments/${d}/revisions/${r}/logs`;

/** Reads a server-sent event stream until `end` (or the time runs out), as a client would. */
async function readEvents(
  path: string,
  headers: Record<string, string> = {},
  onEvent?: (e: RawEvent) => void,
) {
  const res = await fetch(`${inject("baseUrl")}${path}`, {
    headers: { "x-api-key": tenant.keys.viewer, ...headers },
    signal: AbortSignal.timeout(20_000),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: RawEvent[] = [];
  for await (const event of serverSentEvents(res.body!)) {
    events.push(event);
    onEvent?.(event);
  }
  return events;
}

describe("GET .../revisions/{id}/logs", () => {
  it("pages the log oldest first, by offset and by the `after` cursor", async () => {
    const created = await createDeployment(tenant.keys.editor);
    const revision = await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    const path = logsPath(created.id, revision.id);
    const all = await api(path, { key: tenant.keys.viewer });
    expect(all.status).toBe(200);
    const lines = all.body.resources;
    expect(lines.length).toBeGreaterThan(3);
    expect(Object.keys(lines[0]).sort()).toEqual(["created_at", "id", "line", "stream"]);
    expect(lines[0]).toMatchObject({
      stream: "build",
      line: "Revision 1 admitted (internal_container)",
    });
    expect(lines.at(-1)).toMatchObject({ stream: "deploy", line: "Revision 1 deployed" });
    expect(lines.map((l: { id: number }) => l.id)).toEqual(
      [...lines.map((l: { id: number }) => l.id)].sort((a, b) => a - b),
    );
    expect(all.body.offset).toBe(lines.length);

    const first = await api(`${path}?limit=2`, { key: tenant.keys.viewer });
    expect(first.body).toEqual({ resources: lines.slice(0, 2), offset: 2 });
    const second = await api(`${path}?limit=2&offset=2`, { key: tenant.keys.viewer });
    expect(second.body.resources).toEqual(lines.slice(2, 4));
    const after = await api(`${path}?after=${lines[1].id}&limit=2`, { key: tenant.keys.viewer });
    expect(after.body.resources).toEqual(lines.slice(2, 4));

    const caller = createCaller({ db: testDb(), actor: tenant.actors.viewer, requestId: "t" });
    const viaTrpc = await caller.revisions.logs({
      deploymentId: created.id,
      revisionId: revision.id,
      limit: "3",
    });
    expect(viaTrpc.resources).toEqual(lines.slice(0, 3));
  });

  it("answers 422 for bad parameters, 401 without a key and 404 for others' revisions", async () => {
    const created = await createDeployment(tenant.keys.editor);
    const path = logsPath(created.id, created.latest_revision_id);
    const bad = await api(`${path}?limit=0`, { key: tenant.keys.viewer });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "limit"]);
    expect((await api(path)).status).toBe(401);
    const other = await createTenant();
    expect((await api(path, { key: other.keys.admin })).status).toBe(404);
    expect(
      (await api(logsPath(created.id, crypto.randomUUID()), { key: tenant.keys.viewer })).status,
    ).toBe(404);
    expect((await api(`${path}/stream`)).status).toBe(401);
    expect((await api(`${path}/stream`, { key: other.keys.admin })).status).toBe(404);
    expect((await api(`${path}/stream?after=-1`, { key: tenant.keys.viewer })).status).toBe(422);
  });
});

describe("GET .../revisions/{id}/logs/stream", () => {
  it("delivers lines while the revision runs, then ends with its final status", async () => {
    // Its deploy waits at the gate until the stream has delivered the line that starts it.
    const hold = { step: "deploy", name: uniqueName("live") } as const;
    await engineGate().hold(hold);
    const created = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      name: hold.name,
    });
    const revisionId = created.latest_revision_id;
    const seenWhileRunning: string[] = [];
    const events = await readEvents(`${logsPath(created.id, revisionId)}/stream`, {}, (event) => {
      if (event.event !== "log" || !JSON.parse(event.data).line.startsWith("Deploying ")) return;
      // Its deploy is held until this check is done: the line arrived while the revision ran.
      void testDb()
        .revision.findUniqueOrThrow({ where: { id: revisionId } })
        .then((r) => r.status !== "DEPLOYED" && seenWhileRunning.push(event.data))
        .finally(() => engineGate().release(hold));
    });
    const logs = events.filter((e) => e.event === "log").map((e) => JSON.parse(e.data));
    expect(logs[0].line).toBe("Revision 1 admitted (codehost)");
    expect(logs.at(-1).line).toBe("Revision 1 deployed");
    expect(events.at(-1)).toEqual({
      id: undefined,
      event: "end",
      data: JSON.stringify({ status: "DEPLOYED" }),
    });
    // The stream was live: lines arrived before the revision had finished.
    expect(seenWhileRunning.length).toBeGreaterThan(0);
    const stored = await api(logsPath(created.id, revisionId), { key: tenant.keys.viewer });
    expect(logs).toEqual(stored.body.resources);
    expect(events.filter((e) => e.event === "log").map((e) => Number(e.id))).toEqual(
      logs.map((l) => l.id),
    );
  });

  it("resumes after Last-Event-ID, and streams lines written after it connected", async () => {
    const created = await createDeployment(tenant.keys.editor);
    const revision = await waitForRevision(created.latest_revision_id, ["DEPLOYED"]);
    const all = (await api(logsPath(created.id, revision.id), { key: tenant.keys.viewer })).body
      .resources;
    const resumed = await readEvents(`${logsPath(created.id, revision.id)}/stream`, {
      "last-event-id": String(all.at(-3).id),
    });
    expect(resumed.filter((e) => e.event === "log").map((e) => JSON.parse(e.data))).toEqual(
      all.slice(-2),
    );

    // A revision held open (interrupting would end it): lines appended now reach the client.
    const pending = await testDb().revision.create({
      data: {
        deploymentId: created.id,
        number: 99,
        source: "internal_container",
        status: "CREATING",
        sourceConfig: {},
        sourceRevisionConfig: {},
      },
    });
    const path = `${logsPath(created.id, pending.id)}/stream`;
    const received: string[] = [];
    const reading = readEvents(path, {}, (e) => {
      if (e.event === "log") received.push(JSON.parse(e.data).line);
    });
    await appendLogs(testDb(), pending.id, "build", ["first line"]);
    await waitForLines(received, 1);
    await appendLogs(testDb(), pending.id, "deploy", ["second line"]);
    await waitForLines(received, 2);
    await testDb().revision.update({ where: { id: pending.id }, data: { status: "INTERRUPTED" } });
    const events = await reading;
    expect(received).toEqual(["first line", "second line"]);
    expect(events.at(-1)!.event).toBe("end");
  });
});

async function waitForLines(received: string[], count: number) {
  for (let i = 0; i < 100 && received.length < count; i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(received.length).toBe(count);
}
