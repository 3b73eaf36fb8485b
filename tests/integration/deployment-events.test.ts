import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startCodehostServer, type CodehostServer } from "../../testing/codehost-server";
import { createCaller } from "../../src/server/api/root";
import type { Actor } from "../../src/server/auth/actor";
import { createCodehostDeployment, createIntegration } from "../helpers/codehost";
import { waitForRevision } from "../helpers/engine";
import { serverSentEvents } from "../helpers/event-stream";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { createDeployment, uniqueName } from "../helpers/revision-fixtures";

// Live deployment changes (GET /v2/deployments/events) and the dashboard's list view over tRPC.

let tenant: Tenant;
let other: Tenant;
let host: CodehostServer;

beforeAll(async () => {
  [tenant, other, host] = await Promise.all([
    createTenant(),
    createTenant(),
    startCodehostServer(),
  ]);
});
afterAll(() => host.stop());

interface Stream {
  /** Resolves with the next event named `name` whose data passes `match`. */
  next(name: string, match?: (data: Record<string, unknown>) => boolean): Promise<unknown>;
  close(): void;
}

/** Opens the stream as a client would and hands its events out as they arrive. */
async function openStream(query = "", key = tenant.keys.viewer): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${inject("baseUrl")}/v2/deployments/events${query}`, {
    headers: { "x-api-key": key },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = serverSentEvents(res.body!);
  const pending: { event: string; data: Record<string, unknown> }[] = [];
  const read = async () => {
    const { value, done } = await events.next();
    if (done) throw new Error("stream ended");
    return { event: value.event, data: JSON.parse(value.data || "{}") as Record<string, unknown> };
  };
  return {
    async next(name, match = () => true) {
      const seen = pending.findIndex((e) => e.event === name && match(e.data));
      if (seen >= 0) return pending.splice(seen, 1)[0]!.data;
      for (;;) {
        const e = await read();
        if (e.event === name && match(e.data)) return e.data;
        pending.push(e);
      }
    },
    close: () => abort.abort(),
  };
}

describe("GET /v2/deployments/events", () => {
  it("needs credentials and answers 404 for another workspace's deployment", async () => {
    const unauthenticated = await api("/v2/deployments/events");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toHaveProperty("detail");

    const theirs = await createDeployment(other.keys.editor);
    const crossWorkspace = await api(`/v2/deployments/events?deployment_id=${theirs.id}`, {
      key: tenant.keys.viewer,
    });
    expect(crossWorkspace.status).toBe(404);
    expect(crossWorkspace.body.detail).toBe(`Deployment ID ${theirs.id} not found.`);

    const bad = await api("/v2/deployments/events?deployment_id=nope", { key: tenant.keys.viewer });
    expect(bad.status).toBe(422);
  });

  it("tells the workspace's listeners about a created deployment and its revision's moves", async () => {
    const workspace = await openStream();
    const foreign = await openStream("", other.keys.viewer);
    await Promise.all([workspace.next("ready"), foreign.next("ready")]);

    const created = await createDeployment(tenant.keys.editor);
    await workspace.next("change", (d) => d.deployment_id === created.id);

    // One deployment's stream: its revision finishing (the worker's write) arrives too.
    const one = await openStream(`?deployment_id=${created.id}`);
    await one.next("ready");
    const patched = await api(`/v2/deployments/${created.id}`, {
      key: tenant.keys.editor,
      method: "PATCH",
      body: { source_revision_config: { image_uri: "registry.example/app:2" } },
    });
    expect(patched.status, patched.text).toBe(200);
    await one.next("change", (d) => d.deployment_id === created.id);
    await waitForRevision(patched.body.latest_revision_id);
    await one.next("change", (d) => d.deployment_id === created.id);

    // Another workspace's stream heard nothing of ours, only its own changes.
    const theirs = await createDeployment(other.keys.editor);
    await foreign.next("change", (d) => {
      expect(d.deployment_id).not.toBe(created.id);
      return d.deployment_id === theirs.id;
    });
    for (const s of [workspace, foreign, one]) s.close();
  });
});

describe("tRPC deployments.list (the dashboard's view)", () => {
  const caller = (actor: Actor) => createCaller({ db: testDb(), requestId: "trpc", actor });

  it("carries each row's revisions, a total, the failed filter and sorting", async () => {
    const prefix = uniqueName("view");
    const integrationId = await createIntegration(tenant.keys.admin, host);
    const failed = await createCodehostDeployment(tenant.keys.editor, host, integrationId, {
      name: `${prefix}-b`,
      ref: "nonexistent-branch",
    });
    const fine = await createDeployment(tenant.keys.editor, { name: `${prefix}-a` });
    await waitForRevision(failed.latest_revision_id, ["CREATE_FAILED"]);
    await waitForRevision(fine.latest_revision_id, ["DEPLOYED"]);

    const viewer = caller(tenant.actors.viewer);
    const all = await viewer.deployments.list({ name_contains: prefix, sort: "name", dir: "asc" });
    expect(all.total).toBe(2);
    expect(all.resources.map((d) => d.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    const [a, b] = all.resources;
    expect(a!.active_revision).toMatchObject({ number: 1, status: "DEPLOYED" });
    expect(b!.latest_revision).toMatchObject({ number: 1, status: "CREATE_FAILED" });
    expect(b!.latest_revision!.status_message).toMatch(/nonexistent-branch/);

    const desc = await viewer.deployments.list({
      name_contains: prefix,
      sort: "name",
      dir: "desc",
    });
    expect(desc.resources.map((d) => d.name)).toEqual([`${prefix}-b`, `${prefix}-a`]);
    // Status sorts as the badge reads: failed before live.
    const byStatus = await viewer.deployments.list({ name_contains: prefix, sort: "status" });
    expect(byStatus.resources.map((d) => d.name)).toEqual([`${prefix}-b`, `${prefix}-a`]);

    const onlyFailed = await viewer.deployments.list({ name_contains: prefix, failed: "true" });
    expect(onlyFailed.resources.map((d) => d.id)).toEqual([failed.id]);
    expect(onlyFailed.total).toBe(1);
    // "Failed" sits beside the statuses: either matches.
    const either = await viewer.deployments.list({
      name_contains: prefix,
      failed: "true",
      status: "READY",
    });
    expect(either.total).toBe(2);
    const page = await viewer.deployments.list({ name_contains: prefix, limit: "1" });
    expect(page).toMatchObject({ total: 2, offset: 1 });
  });
});
