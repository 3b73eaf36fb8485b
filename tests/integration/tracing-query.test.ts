import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { Client } from "langsmith";
import { beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../helpers/deployments";
import { readTraceTree } from "../../src/server/services/tracing/trace-tree";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sdkRun, tracingUrl } from "../helpers/tracing";

// The run query's filters (tags, metadata, status), a trace as a tree, and compressed JSON
// bodies refused with 415. The query route allows 15 calls per 10 s per key: the tests spread
// their calls over the tenant's keys.

let tenant: Tenant;
let other: Tenant;
const project = uniqueName("query");
let projectId: string;

type Run = ReturnType<typeof sdkRun>;
const at = (base: number, ms: number) => new Date(base + ms);

// A trace: root → (plan → search), answer; started 0, 10, 12, 50 ms after the root; plus runs
// outside it to filter on.
const base = Date.now() - 60_000;
let root: Run;
let plan: Run;
let search: Run;
let answer: Run;
let pending: Run;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  const s = { session_name: project };
  root = sdkRun(
    { ...s, name: "root", tags: ["prod", "v2"], end_time: base + 80 },
    undefined,
    at(base, 0),
  );
  plan = sdkRun(
    {
      ...s,
      name: "plan",
      tags: ["prod"],
      extra: { metadata: { user: "ada", attempt: 2, cached: false } },
      end_time: base + 30,
    },
    root,
    at(base, 10),
  );
  search = sdkRun(
    { ...s, name: "search", run_type: "tool", error: "timeout", end_time: base + 25 },
    plan,
    at(base, 12),
  );
  answer = sdkRun(
    {
      ...s,
      name: "answer",
      run_type: "llm",
      extra: { metadata: { user: "ada" } },
      end_time: base + 70,
    },
    root,
    at(base, 50),
  );
  pending = sdkRun({ ...s, name: "pending", tags: ["v2"] }, undefined, at(base, 5));
  const res = await api("/api/v1/runs/batch", {
    key: tenant.keys.editor,
    method: "POST",
    body: { post: [root, plan, search, answer, pending] },
  });
  expect(res.status).toBe(202);
  projectId = (await api(`/api/v1/sessions?name=${project}`, { key: tenant.keys.viewer })).body[0]
    .id;
});

async function names(key: string, filter: Record<string, unknown>) {
  const res = await api("/api/v1/runs/query", {
    key,
    method: "POST",
    body: { session: [projectId], select: ["name"], ...filter },
  });
  expect(res.status).toBe(200);
  return (res.body.runs as { name: string }[]).map((r) => r.name).sort();
}

describe("POST /api/v1/runs/query filters", () => {
  it("filters by tags (runs carrying all of them)", async () => {
    const key = tenant.keys.viewer;
    expect(await names(key, { tags: ["prod"] })).toEqual(["plan", "root"]);
    expect(await names(key, { tags: ["prod", "v2"] })).toEqual(["root"]);
    expect(await names(key, { tags: ["v2"] })).toEqual(["pending", "root"]);
    expect(await names(key, { tags: ["nowhere"] })).toEqual([]);
  });

  it("filters by metadata keys and values, by type", async () => {
    const key = tenant.keys.viewer;
    expect(await names(key, { metadata: { user: "ada" } })).toEqual(["answer", "plan"]);
    expect(await names(key, { metadata: { user: "ada", attempt: 2 } })).toEqual(["plan"]);
    expect(await names(key, { metadata: { cached: false } })).toEqual(["plan"]);
    expect(await names(key, { metadata: { attempt: "2" } })).toEqual([]);
  });

  it("filters by status, alone and with the other filters", async () => {
    const key = tenant.keys.admin;
    expect(await names(key, { status: "error" })).toEqual(["search"]);
    expect(await names(key, { status: "pending" })).toEqual(["pending"]);
    expect(await names(key, { status: "success" })).toEqual(["answer", "plan", "root"]);
    expect(await names(key, { status: "success", tags: ["prod"], is_root: true })).toEqual([
      "root",
    ]);
  });

  it("refuses malformed filters and filter expressions with 422", async () => {
    const key = tenant.keys.editor;
    for (const [body, loc] of [
      [{ metadata: { user: { nested: 1 } } }, ["body", "metadata", "user"]],
      [{ tags: "prod" }, ["body", "tags"]],
      [{ status: "done" }, ["body", "status"]],
      [{ filter: 'has(tags, "prod")' }, ["body", "filter"]],
    ] as const) {
      const res = await api("/api/v1/runs/query", { key, method: "POST", body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBeUndefined();
      expect(res.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
    }
  });

  it("serves the langsmith SDK's listRuns filters that map to it", async () => {
    const sdk = new Client({ apiUrl: tracingUrl(), apiKey: tenant.keys.editor });
    const collect = async (props: Parameters<Client["listRuns"]>[0]) => {
      const out: string[] = [];
      for await (const run of sdk.listRuns(props)) out.push(run.name);
      return out.sort();
    };
    expect(await collect({ projectId, error: true })).toEqual(["search"]);
    expect(await collect({ projectId, error: false, isRoot: true })).toEqual(["pending", "root"]);
    expect(await collect({ projectId, runType: "llm" })).toEqual(["answer"]);
    // Filter expressions stay refused: the SDK surfaces the 422.
    await expect(
      (async () => {
        for await (const run of sdk.listRuns({ projectId, filter: 'has(tags, "prod")' })) void run;
      })(),
    ).rejects.toThrow(/422/);
    // Another workspace's key does not see the project.
    const theirs = new Client({ apiUrl: tracingUrl(), apiKey: other.keys.viewer });
    await expect(
      (async () => {
        for await (const run of theirs.listRuns({ projectId })) void run;
      })(),
    ).rejects.toThrow(/404|not found/i);
  });
});

describe("GET /api/v1/runs/{run_id}/tree", () => {
  it("answers the whole trace from any of its runs: depth first, depth, offsets", async () => {
    const res = await api(`/api/v1/runs/${search.id}/tree`, { key: tenant.keys.viewer });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"run-lookup-api-key";q=30;w=60');
    expect(res.body).toMatchObject({
      trace_id: root.id,
      root_run_id: root.id,
      run_count: 4,
      truncated: false,
      cursors: { next: null },
    });
    expect(res.body.start_time).toBe(new Date(base).toISOString().replace("Z", "000Z"));
    expect(res.body.end_time).toBe(new Date(base + 80).toISOString().replace("Z", "000Z"));
    const runs = res.body.runs as Record<string, unknown>[];
    expect(runs.map((r) => [r.name, r.depth, r.parent_run_id ?? null])).toEqual([
      ["root", 0, null],
      ["plan", 1, root.id],
      ["search", 2, plan.id],
      ["answer", 1, root.id],
    ]);
    expect(runs.map((r) => [r.start_offset_ms, r.end_offset_ms])).toEqual([
      [0, 80],
      [10, 30],
      [12, 25],
      [50, 70],
    ]);
    expect(runs[2]).toMatchObject({ status: "error", error: "timeout", run_type: "tool" });
    expect(runs[0]).toMatchObject({
      status: "success",
      tags: ["prod", "v2"],
      session_id: projectId,
    });
    expect(runs[0]).not.toHaveProperty("inputs");
  });

  it("pages a trace with its cursor, in the same order", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/v1/runs/${root.id}/tree?limit=3${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await api(path, { key: tenant.keys.editor });
      expect(page.status).toBe(200);
      expect(page.body.run_count).toBe(4);
      expect(page.body.truncated).toBe(page.body.cursors.next !== null);
      seen.push(...(page.body.runs as { name: string }[]).map((r) => r.name));
      cursor = page.body.cursors.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(["root", "plan", "search", "answer"]);
  });

  it("puts runs not placed yet (no dotted_order) last, without a depth", async () => {
    const traceRoot = sdkRun({ session_name: project, name: "t-root" }, undefined, at(base, 0));
    const waiting = {
      id: randomUUID(),
      name: "waiting",
      trace_id: traceRoot.id,
      parent_run_id: randomUUID(),
      start_time: base + 5,
      session_name: project,
    };
    const post = await api("/api/v1/runs/batch", {
      key: tenant.keys.editor,
      method: "POST",
      body: { post: [traceRoot, waiting] },
    });
    expect(post.status).toBe(202);
    const res = await api(`/api/v1/runs/${waiting.id}/tree`, { key: tenant.keys.viewer });
    expect(res.status).toBe(200);
    expect(
      (res.body.runs as Record<string, unknown>[]).map((r) => [r.name, r.depth, r.status]),
    ).toEqual([
      ["t-root", 0, "pending"],
      ["waiting", null, "pending"],
    ]);
    expect(res.body.runs[1].start_offset_ms).toBe(5);
  });

  it("answers 404 for another workspace's run or an unknown one, 422 for bad paging", async () => {
    for (const [key, id] of [
      [other.keys.viewer, root.id],
      [tenant.keys.viewer, randomUUID()],
      [tenant.keys.viewer, "not-a-uuid"],
    ] as const) {
      const res = await api(`/api/v1/runs/${id}/tree`, { key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Run ${id} not found`, code: "not_found" });
    }
    for (const [query, loc] of [
      ["limit=0", ["query", "limit"]],
      ["limit=1001", ["query", "limit"]],
      ["cursor=bm90LWEtY3Vyc29y", ["query", "cursor"]],
    ] as const) {
      const res = await api(`/api/v1/runs/${root.id}/tree?${query}`, { key: tenant.keys.admin });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    }
    const anonymous = await api(`/api/v1/runs/${root.id}/tree`);
    expect(anonymous.status).toBe(401);
  });
});

describe("readTraceTree, the service the dashboard calls", () => {
  it("reads a trace by its id, a page at a time, in the caller's workspace only", async () => {
    const first = await readTraceTree(testDb(), tenant.actors.viewer, root.id, { limit: 2 });
    expect(first.runs.map((r) => r.name)).toEqual(["root", "plan"]);
    expect(first).toMatchObject({ run_count: 4, truncated: true });
    const rest = await readTraceTree(testDb(), tenant.actors.viewer, root.id, {
      cursor: first.cursors.next,
    });
    expect(rest.runs.map((r) => r.name)).toEqual(["search", "answer"]);
    expect(rest.truncated).toBe(false);
    await expect(readTraceTree(testDb(), other.actors.viewer, root.id)).rejects.toMatchObject({
      code: "not_found",
      message: `Trace ${root.id} not found`,
    });
  });
});

describe("compressed JSON bodies", () => {
  it("answers 415 with the contract's body on every JSON tracing route", async () => {
    const run = sdkRun({ session_name: project });
    const routes: [string, string, unknown][] = [
      ["POST", "/api/v1/runs", run],
      ["PATCH", `/api/v1/runs/${run.id}`, { end_time: Date.now() }],
      ["POST", "/api/v1/runs/batch", { post: [run] }],
      ["POST", "/api/v1/runs/query", { limit: 1 }],
      ["POST", "/api/v1/feedback", { run_id: run.id, key: "k", score: 1 }],
      ["POST", "/api/v1/sessions", { name: uniqueName("gzip") }],
    ];
    for (const [method, path, body] of routes) {
      for (const encoding of ["gzip", "br"]) {
        const res = await fetch(`${tracingUrl()}${path.slice("/api/v1".length)}`, {
          method,
          headers: {
            "x-api-key": tenant.keys.editor,
            "content-type": "application/json",
            "content-encoding": encoding,
          },
          body: new Uint8Array(gzipSync(JSON.stringify(body))),
        });
        expect({ method, path, status: res.status, body: await res.json() }).toEqual({
          method,
          path,
          status: 415,
          body: {
            detail: `Content-Encoding ${encoding} is not accepted: send the body uncompressed`,
            code: "unsupported_media_type",
          },
        });
      }
    }
    // Nothing was stored; the same bodies uncompressed (or `identity`) are taken.
    expect((await api(`/api/v1/runs/${run.id}`, { key: tenant.keys.viewer })).status).toBe(404);
    const plain = await api("/api/v1/runs", {
      key: tenant.keys.editor,
      method: "POST",
      body: run,
      headers: { "content-encoding": "identity" },
    });
    expect(plain.status).toBe(202);
  });
});
