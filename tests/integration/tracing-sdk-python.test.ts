import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensurePythonSdk, LANGSMITH_PY_VERSION } from "../../testing/python-sdk";
import { uniqueName } from "../helpers/deployments";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { tracingUrl } from "../helpers/tracing";

// The reference platform's Python tracing SDK, unmodified (PyPI `langsmith`, in a virtualenv of
// its own), configured only by its environment variables as a deployed agent is: it traces a
// chain into Hangar and reads it back (tests/fixtures/langsmith_chain.py prints what it read).

interface ReadRun {
  id: string;
  name: string;
  run_type: string;
  trace_id: string;
  parent_run_id: string | null;
  parent_run_ids: string[];
  dotted_order: string;
  session_id: string;
  status: string;
  error: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
}

interface ReadFeedback {
  id: string;
  run_id: string;
  key: string;
  score: number | null;
  comment: string | null;
}

/** What the script printed. */
interface Traced {
  sdk_version: string;
  root_id: string;
  trace_id: string;
  root: ReadRun;
  /** The root's attachments as the SDK read them: it downloads each presigned_url itself. */
  root_attachments: Record<string, { presigned_url: string; mime_type: string; text: string }>;
  child_runs: string[];
  runs: ReadRun[];
  trace_run_ids: string[];
  root_run_ids: string[];
  project: { id: string; name: string; tenant_id: string };
  project_by_id: string;
  feedback: ReadFeedback[];
  feedback_read: ReadFeedback | null;
  /** Every request the SDK made: method, path, Hangar's status. */
  requests: [string, string, number][];
  /** What the SDK logged at WARNING or above (a lost batch, a refused request). */
  warnings: string[];
}

const SCRIPT = path.resolve(import.meta.dirname, "../fixtures/langsmith_chain.py");
const project = uniqueName("py-sdk-project");
let tenant: Tenant;
let other: Tenant;
let traced: Traced;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  // Made on first use (pip, a few seconds from a near index), then reused: only this file pays.
  const python = await ensurePythonSdk();
  // Only these settings: none of the SDK's others from the machine (LANGSMITH_*, LANGCHAIN_*).
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(LANGSMITH|LANGCHAIN)_/.test(name)) delete env[name];
  Object.assign(env, {
    LANGSMITH_ENDPOINT: tracingUrl(),
    LANGSMITH_API_KEY: tenant.keys.editor,
    LANGSMITH_PROJECT: project,
    LANGSMITH_TRACING: "true",
  });
  const run = promisify(execFile);
  const { stdout } = await run(python, [SCRIPT], { env, timeout: 120_000 }).catch((error) => {
    // execFile's message holds the command and its stderr (the traceback).
    throw new Error(`${SCRIPT} failed: ${error.message}\n${error.stdout}`, { cause: error });
  });
  traced = JSON.parse(stdout);
}, 600_000);

describe("the Python langsmith SDK against /api/v1", () => {
  it("is the pinned release, and every request it made succeeded", () => {
    expect(traced.sdk_version).toBe(LANGSMITH_PY_VERSION);
    const failed = traced.requests.filter(([, , status]) => status >= 400);
    expect(failed).toEqual([]);
  });

  it("sent the runs by uncompressed multipart, not the JSON fallbacks, and the feedback alone", async () => {
    const info = await api("/api/v1/info");
    expect(info.body.batch_ingest_config.use_multipart_endpoint).toBe(true);
    // Hangar offers no zstd (its /info says so): the SDK's one warning, then plain multipart.
    expect(info.body.instance_flags.zstd_compression_enabled).toBe(false);
    expect(traced.warnings).toEqual([
      "Run compression is not enabled. Please update to the latest version of LangSmith. Falling back to regular multipart ingestion.",
    ]);
    const paths = traced.requests.map(([method, url]) => `${method} ${url}`);
    expect(paths).toContain("POST /api/v1/runs/multipart");
    for (const fallback of ["POST /api/v1/runs/batch", "POST /api/v1/runs"])
      expect(paths).not.toContain(fallback);
    // The SDK batches feedback only for a backend version from 0.8.10 and /info carries Hangar's
    // own (0.1.0): both feedbacks, with the trace id and without, were posted alone.
    const feedback = traced.requests.filter(
      ([m, url]) => `${m} ${url}` === "POST /api/v1/feedback",
    );
    expect(feedback.map(([, , status]) => status)).toEqual([200, 200]);
    const multipart = traced.requests.filter(([, url]) => url === "/api/v1/runs/multipart");
    expect(multipart.map(([, , status]) => status)).toEqual(multipart.map(() => 202));
  });

  it("reads the root run back with its trace and dotted order", () => {
    expect(traced.root).toMatchObject({
      id: traced.root_id,
      name: "chain",
      run_type: "chain",
      trace_id: traced.root_id,
      parent_run_id: null,
      status: "success",
      inputs: { question: "hello" },
      outputs: { answer: "HELLO" },
      session_id: traced.project.id,
    });
    expect(traced.trace_id).toBe(traced.root_id);
    expect(traced.root.dotted_order).toMatch(new RegExp(`^\\d{8}T\\d{12}Z${traced.root_id}$`));
  });

  it("reads the root's attachment back through its presigned_url, without its API key", () => {
    expect(traced.root_attachments).toEqual({
      notes: {
        presigned_url: expect.stringMatching(
          new RegExp(
            `^${tracingUrl()}/public/download\\?run_id=${traced.root_id}&name=notes&.*signature=`,
          ),
        ),
        mime_type: "text/plain",
        text: "notes on hello",
      },
    });
    // A failed download would be the SDK's warning (read_run and list_runs both download).
    expect(traced.warnings.filter((w) => w.includes("attachment"))).toEqual([]);
  });

  it("lists the project's runs with their parentage, the tool's error and the llm's tokens", () => {
    expect(traced.runs.map((r) => r.name).sort()).toEqual(["chain", "llm", "tool"]);
    for (const child of traced.runs.filter((r) => r.id !== traced.root_id)) {
      expect(child.parent_run_id).toBe(traced.root_id);
      expect(child.parent_run_ids).toEqual([traced.root_id]);
      expect(child.trace_id).toBe(traced.root_id);
      expect(child.dotted_order.startsWith(`${traced.root.dotted_order}.`)).toBe(true);
      expect(child.session_id).toBe(traced.project.id);
    }
    const tool = traced.runs.find((r) => r.name === "tool")!;
    expect(tool).toMatchObject({ run_type: "tool", status: "error" });
    expect(tool.error).toContain("the tool broke");
    const llm = traced.runs.find((r) => r.name === "llm")!;
    expect(llm).toMatchObject({
      run_type: "llm",
      status: "success",
      prompt_tokens: 7,
      completion_tokens: 3,
      total_tokens: 10,
    });
  });

  it("lists the trace's runs, the root runs and the root's children", () => {
    expect(traced.trace_run_ids).toEqual(traced.runs.map((r) => r.id).sort());
    expect(traced.root_run_ids).toEqual([traced.root_id]);
    expect(traced.child_runs).toEqual(["llm", "tool"]);
  });

  it("reads the project by name and id, and the feedback both ways it was sent", () => {
    expect(traced.project).toEqual({
      id: traced.project_by_id,
      name: project,
      tenant_id: tenant.workspaceId,
    });
    const feedback = traced.feedback.map((f) => [f.key, f.score, f.run_id]).sort();
    expect(feedback).toEqual([
      ["correctness", 1, traced.root_id],
      ["helpfulness", 0.5, traced.root_id],
    ]);
    expect(traced.feedback.find((f) => f.key === "helpfulness")!.comment).toBe("fine");
    expect(traced.feedback_read).toEqual(traced.feedback[0]);
  });

  it("stored the runs in the key's workspace, as Hangar's own run query shows", async () => {
    const stored = await api(`/api/v1/sessions/${traced.project.id}`, { key: tenant.keys.viewer });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ name: project, tenant_id: tenant.workspaceId });
    const query = await api("/api/v1/runs/query", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { session: [traced.project.id], order: "asc" },
    });
    expect(query.status).toBe(200);
    const runs = query.body.runs as ReadRun[];
    expect(runs.map((r) => r.id).sort()).toEqual(traced.runs.map((r) => r.id).sort());
    const byName = Object.fromEntries(runs.map((r) => [r.name, r]));
    expect(byName.chain).toMatchObject({ id: traced.root_id, parent_run_id: null });
    expect(byName.llm).toMatchObject({ parent_run_id: traced.root_id, total_tokens: 10 });
    expect(byName.tool).toMatchObject({ parent_run_id: traced.root_id, status: "error" });
    for (const r of runs) expect(r.session_id).toBe(traced.project.id);
  });

  it("answers another workspace's key with 404 for the project and its runs", async () => {
    const key = other.keys.editor;
    const projectRead = await api(`/api/v1/sessions/${traced.project.id}`, { key });
    expect(projectRead.status).toBe(404);
    expect(projectRead.body).toEqual({
      detail: `Project ${traced.project.id} not found`,
      code: "not_found",
    });
    const query = await api("/api/v1/runs/query", {
      key,
      method: "POST",
      body: { session: [traced.project.id] },
    });
    expect(query.status).toBe(404);
    expect((await api(`/api/v1/runs/${traced.root_id}`, { key })).status).toBe(404);
    expect((await api(`/api/v1/feedback?run=${traced.root_id}`, { key })).body).toEqual([]);
  });
});
