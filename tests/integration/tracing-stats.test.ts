import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/server/auth/api-keys";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { sdkRun } from "../helpers/tracing";

// POST /api/v1/runs/stats over HTTP (contract 15.4): totals and every bucket of the range, the
// SDK's filters, the errors, and another workspace's project as a 404. The spec's row allows one
// call per 10 s per key (US), so each call here uses a key of its own.

let tenant: Tenant;
let other: Tenant;
let projectId: string;
/** The hour the seeded runs start in (two hours ago, on the hour). */
let hour: number;

/** A fresh viewer key of the tenant's workspace (the stats row counts per key). */
async function freshKey(t: Tenant = tenant): Promise<string> {
  const key = generateApiKey();
  await testDb().apiKey.create({
    data: {
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      name: `stats ${randomUUID()}`,
      kind: "service",
      role: "viewer",
      orgRole: "member",
      prefix: key.prefix,
      keyHash: key.hash,
    },
  });
  return key.key;
}

const stats = async (body: unknown, key?: string) =>
  api("/api/v1/runs/stats", { key: key ?? (await freshKey()), method: "POST", body });

const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
  const session = `stats-${randomUUID()}`;
  // Hour one: four traces of 1..4 s (the last failed), one child; hour two: one pending trace.
  const roots = [1, 2, 3, 4].map((seconds, i) => {
    const start = hour + i * 60_000;
    return sdkRun(
      {
        session_name: session,
        name: "answer",
        end_time: start + seconds * 1000,
        outputs: { usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
        ...(seconds === 4 ? { error: "ValueError: boom" } : {}),
      },
      undefined,
      new Date(start),
    );
  });
  const child = sdkRun(
    { session_name: session, name: "llm", run_type: "llm", end_time: hour + 500 },
    roots[0],
    new Date(hour + 100),
  );
  const pending = sdkRun({ session_name: session }, undefined, new Date(hour + 3_600_000 + 5000));
  const res = await api("/api/v1/runs/batch", {
    key: tenant.keys.editor,
    method: "POST",
    body: { post: [...roots, child, pending] },
  });
  expect(res.status).toBe(202);
  projectId = (await api(`/api/v1/sessions?name=${session}`, { key: tenant.keys.viewer })).body[0]
    .id;
});

describe("POST /api/v1/runs/stats", () => {
  it("answers totals and every bucket of the range, latency over the runs that ended", async () => {
    const res = await stats({
      session: [projectId],
      is_root: true,
      start_time: iso(hour),
      end_time: iso(hour + 3 * 3_600_000),
      interval: "hour",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      run_count: 5,
      error_count: 1,
      error_rate: 0.2,
      latency_p50: 2.5,
      prompt_tokens: 40,
      completion_tokens: 20,
      total_tokens: 60,
      interval: "hour",
      start_time: `${iso(hour).slice(0, 19)}.000000Z`,
    });
    expect(res.body.latency_p99).toBeCloseTo(3.97, 5);
    expect(res.body.last_run_start_time).toBe(`${iso(hour + 3_605_000).slice(0, 19)}.000000Z`);
    expect(res.body.buckets).toHaveLength(3);
    expect(res.body.buckets[0]).toMatchObject({
      start_time: `${iso(hour).slice(0, 19)}.000000Z`,
      run_count: 4,
      error_count: 1,
      error_rate: 0.25,
    });
    // The pending trace counts, but has no latency.
    expect(res.body.buckets[1]).toMatchObject({
      run_count: 1,
      error_count: 0,
      latency_p50: null,
      total_tokens: 0,
    });
    expect(res.body.buckets[2]).toMatchObject({
      run_count: 0,
      error_rate: null,
      latency_p99: null,
    });
  });

  it("counts every run without is_root, and takes the query's filters", async () => {
    const all = await stats({ session: [projectId], start_time: iso(hour - 60_000) });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ run_count: 6 });
    const twoHours = await stats({
      session: [projectId],
      start_time: iso(hour),
      end_time: iso(hour + 2 * 3_600_000),
    });
    expect(twoHours.body).toMatchObject({ run_count: 6, interval: "minute" });
    expect(twoHours.body.buckets).toHaveLength(120);
    const llm = await stats({ session: [projectId], run_type: "llm", execution_order: null });
    expect(llm.body).toMatchObject({ run_count: 1, latency_p50: 0.4 });
    const errors = await stats({ session: [projectId], error: true });
    expect(errors.body).toMatchObject({ run_count: 1, error_rate: 1, interval: "day" });
  });

  it("accepts the SDK's getRunStats body (null filters)", async () => {
    const res = await stats({
      session: [projectId],
      is_root: true,
      filter: null,
      trace_filter: null,
      tree_filter: null,
      query: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.run_count).toBe(5);
  });

  it("answers 404 for a project of another workspace, as if absent", async () => {
    const res = await stats({ session: [projectId] }, await freshKey(other));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ detail: `Project ${projectId} not found` });
  });

  it("refuses bad bodies with 422", async () => {
    const cases: [unknown, string][] = [
      [{}, "session"],
      [{ session: [] }, "session"],
      [{ session: ["not-a-uuid"] }, "session"],
      [{ session: [projectId], interval: "week" }, "interval"],
      [{ session: [projectId], filter: 'eq(name, "x")' }, "filter"],
      [{ session: [projectId], start_time: iso(hour), end_time: iso(hour) }, "end_time"],
      [
        {
          session: [projectId],
          start_time: iso(hour - 3 * 86_400_000),
          end_time: iso(hour),
          interval: "minute",
        },
        "interval",
      ],
    ];
    for (const [body, field] of cases) {
      const res = await stats(body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.detail[0].loc).toContain(field);
    }
  });

  it("needs credentials and takes the spec's Stats row (1 per 10 s per key)", async () => {
    const anonymous = await api("/api/v1/runs/stats", {
      method: "POST",
      body: { session: [projectId] },
    });
    expect(anonymous.status).toBe(401);
    const key = await freshKey();
    const first = await stats({ session: [projectId] }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"runs-stats-api-key";q=1;w=10');
    const second = await stats({ session: [projectId] }, key);
    expect(second.status).toBe(429);
  });

  it("answers other methods with the tracing base's 404", async () => {
    const res = await api("/api/v1/runs/stats", { key: await freshKey(), method: "GET" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Not Found", code: "not_found" });
  });
});
