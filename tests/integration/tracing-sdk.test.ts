import { Client } from "langsmith";
import { getCurrentRunTree, traceable } from "langsmith/traceable";
import { beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../helpers/deployments";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { tracingUrl } from "../helpers/tracing";

// The reference platform's tracing SDK, unmodified (npm `langsmith`), pointed at Hangar by its
// endpoint setting and an API key: it traces a chain into a project and reads it back.

let tenant: Tenant;
let other: Tenant;
let client: Client;
const project = uniqueName("sdk-project");
const traced: { rootId?: string; traceId?: string } = {};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  client = new Client({ apiUrl: tracingUrl(), apiKey: tenant.keys.editor, timeout_ms: 20_000 });
  const options = { client, project_name: project, tracingEnabled: true };
  const llm = traceable(
    async (question: string) => ({
      answer: question.toUpperCase(),
      usage_metadata: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    }),
    { ...options, name: "llm", run_type: "llm" },
  );
  const tool = traceable(
    async () => {
      throw new Error("the tool broke");
    },
    { ...options, name: "tool", run_type: "tool" },
  );
  const chain = traceable(
    async (question: string) => {
      const run = getCurrentRunTree();
      traced.rootId = run.id;
      traced.traceId = run.trace_id;
      const answer = await llm(question);
      await tool().catch(() => undefined);
      return answer;
    },
    { ...options, name: "chain", run_type: "chain" },
  );
  await chain("hello");
  // Feedback with the trace id rides in a multipart batch; without it, POST /feedback.
  await client.createFeedback(traced.rootId!, "correctness", { score: 1, traceId: traced.traceId });
  await client.awaitPendingTraceBatches();
  await client.createFeedback(traced.rootId!, "helpfulness", { score: 0.5, comment: "fine" });
});

describe("the langsmith SDK against /api/v1", () => {
  it("is told to use multipart ingest, without compression", async () => {
    const info = await api("/api/v1/info");
    expect(info.status).toBe(200);
    expect(info.body.batch_ingest_config.use_multipart_endpoint).toBe(true);
    expect(info.body.batch_ingest_config.size_limit_bytes).toBeLessThan(10 * 1024 * 1024);
    expect(info.body.instance_flags.gzip_body_enabled).not.toBe(true);
    expect(info.body.instance_flags.zstd_compression_enabled).not.toBe(true);
  });

  it("stores the chain: the root run reads back with its trace and dotted order", async () => {
    const root = await client.readRun(traced.rootId!);
    expect(root).toMatchObject({
      id: traced.rootId,
      name: "chain",
      run_type: "chain",
      trace_id: traced.rootId,
      parent_run_id: null,
      status: "success",
      inputs: { input: "hello" },
      outputs: { answer: "HELLO" },
    });
    expect(root.dotted_order).toMatch(new RegExp(`^\\d{8}T\\d{12}Z${traced.rootId}$`));
  });

  it("lists the project's runs with their parentage, error and tokens", async () => {
    const runs = await collect(client.listRuns({ projectName: project }));
    expect(runs.map((r) => r.name).sort()).toEqual(["chain", "llm", "tool"]);
    const root = runs.find((r) => r.name === "chain")!;
    for (const child of runs.filter((r) => r !== root)) {
      expect(child.parent_run_id).toBe(root.id);
      expect(child.trace_id).toBe(root.id);
      expect(child.dotted_order!.startsWith(`${root.dotted_order}.`)).toBe(true);
      expect(child.parent_run_ids).toEqual([root.id]);
    }
    const tool = runs.find((r) => r.name === "tool")!;
    expect(tool.status).toBe("error");
    expect(tool.error).toContain("the tool broke");
    expect(runs.find((r) => r.name === "llm")!.total_tokens).toBe(10);
  });

  it("lists a trace's runs and loads a run's children", async () => {
    const inTrace = await collect(client.listRuns({ traceId: traced.traceId }));
    expect(inTrace).toHaveLength(3);
    const roots = await collect(client.listRuns({ projectName: project, isRoot: true }));
    expect(roots.map((r) => r.id)).toEqual([traced.rootId]);
    const withChildren = await client.readRun(traced.rootId!, { loadChildRuns: true });
    expect(withChildren.child_runs!.map((r) => r.name).sort()).toEqual(["llm", "tool"]);
  });

  it("reads the project by name and id, and the feedback both ways it was sent", async () => {
    const byName = await client.readProject({ projectName: project });
    expect(byName.name).toBe(project);
    expect((await client.readProject({ projectId: byName.id })).id).toBe(byName.id);
    const feedback = await collect(client.listFeedback({ runIds: [traced.rootId!] }));
    expect(feedback.map((f) => [f.key, f.score]).sort()).toEqual([
      ["correctness", 1],
      ["helpfulness", 0.5],
    ]);
    const one = await client.readFeedback(feedback[0]!.id);
    expect(one.run_id).toBe(traced.rootId);
  });

  it("creates projects in the caller's workspace only, by name, once", async () => {
    const name = uniqueName("sdk-made");
    const made = await client.createProject({ projectName: name });
    expect(made.tenant_id).toBe(tenant.workspaceId);
    await expect(client.createProject({ projectName: name })).rejects.toThrow(/409|exists/);
    expect((await client.createProject({ projectName: name, upsert: true })).id).toBe(made.id);
    // The same name in another workspace is another project.
    const theirs = await api(`/api/v1/sessions`, {
      key: other.keys.editor,
      method: "POST",
      body: { name },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(made.id);
  });

  it("answers another workspace's key with 404 for the runs, project and feedback", async () => {
    const key = other.keys.editor;
    const projectId = (await client.readProject({ projectName: project })).id;
    const run = await api(`/api/v1/runs/${traced.rootId}`, { key });
    expect(run.status).toBe(404);
    expect(run.body).toEqual({ detail: `Run ${traced.rootId} not found`, code: "not_found" });
    expect((await api(`/api/v1/sessions/${projectId}`, { key })).status).toBe(404);
    expect((await api(`/api/v1/sessions?name=${project}`, { key })).body).toEqual([]);
    const query = await api("/api/v1/runs/query", {
      key,
      method: "POST",
      body: { session: [projectId] },
    });
    expect(query.status).toBe(404);
    const byTrace = await api("/api/v1/runs/query", {
      key,
      method: "POST",
      body: { trace: traced.traceId },
    });
    expect(byTrace.body.runs).toEqual([]);
    expect((await api(`/api/v1/feedback?run=${traced.rootId}`, { key })).body).toEqual([]);
    const theirFeedback = await api("/api/v1/feedback", {
      key,
      method: "POST",
      body: { run_id: traced.rootId, key: "sneaky", score: 0 },
    });
    expect(theirFeedback.status).toBe(404);
    const otherClient = new Client({ apiUrl: tracingUrl(), apiKey: key });
    await expect(otherClient.readRun(traced.rootId!)).rejects.toThrow(/404|not found/i);
  });
});
