import { gzipSync } from "node:zlib";
import { context, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { beforeAll, describe, expect, it } from "vitest";
import { uniqueName } from "../helpers/deployments";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";
import { tracingUrl } from "../helpers/tracing";

// OpenTelemetry's own SDK and OTLP exporters (protobuf and JSON), unmodified, pointed at
// POST /api/v1/otel/v1/traces: spans become runs of one trace with parentage, error, tokens and
// model; retries store nothing twice; bad bodies get the contract's errors.

let tenant: Tenant;
let other: Tenant;
const otlpUrl = () => `${tracingUrl()}/otel/v1/traces`;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

/** A small agent trace: a root, a GenAI child with model and tokens, and a failed tool call. */
function recordTrace(serviceName = "otel-tests"): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer("hangar-otel-test", "1.0.0");
  const root = tracer.startSpan("agent", { attributes: { "app.user": "ada" } });
  const inRoot = trace.setSpan(context.active(), root);
  const llm: Span = tracer.startSpan(
    "chat gpt-4o-mini",
    {
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.usage.input_tokens": 12,
        "gen_ai.usage.output_tokens": 5,
        "gen_ai.prompt": JSON.stringify([{ role: "user", content: "hello" }]),
        "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "HELLO" }]),
      },
    },
    inRoot,
  );
  llm.end();
  const tool = tracer.startSpan("lookup", { attributes: { "tool.name": "lookup" } }, inRoot);
  tool.recordException(new Error("the tool broke"));
  tool.setStatus({ code: SpanStatusCode.ERROR, message: "the tool broke" });
  tool.end();
  root.end();
  return memory.getFinishedSpans();
}

/** Sends spans through an exporter, as its span processor would; resolves to its result code. */
function exportWith(exporter: SpanExporter, spans: ReadableSpan[]) {
  return new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
}

const exporterHeaders = (key: string, project?: string) => ({
  "x-api-key": key,
  ...(project ? { "Langsmith-Project": project } : {}),
});

async function projectRuns(key: string, project: string) {
  const sessions = await api(`/api/v1/sessions?name=${encodeURIComponent(project)}`, { key });
  expect(sessions.status).toBe(200);
  if (sessions.body.length === 0) return { projectId: null, runs: [] as any[] };
  const projectId = sessions.body[0].id as string;
  const query = await api("/api/v1/runs/query", {
    key,
    method: "POST",
    body: { session: [projectId], limit: 100 },
  });
  expect(query.status).toBe(200);
  return { projectId, runs: query.body.runs as any[] };
}

/** The three runs of the recorded trace, checked for the mapping every encoding must keep. */
function expectAgentTrace(runs: any[], spans: ReadableSpan[]) {
  expect(runs.map((r) => r.name).sort()).toEqual(["agent", "chat gpt-4o-mini", "lookup"]);
  const root = runs.find((r) => r.name === "agent")!;
  const llm = runs.find((r) => r.name === "chat gpt-4o-mini")!;
  const tool = runs.find((r) => r.name === "lookup")!;
  expect(root.parent_run_id).toBeNull();
  expect(root.run_type).toBe("chain");
  expect(root.status).toBe("success");
  expect(root.extra.metadata["app.user"]).toBe("ada");
  expect(root.extra.otel.trace_id).toBe(spans[0]!.spanContext().traceId);
  for (const child of [llm, tool]) {
    expect(child.trace_id).toBe(root.trace_id);
    expect(child.parent_run_id).toBe(root.id);
    expect(child.parent_run_ids).toEqual([root.id]);
    expect(child.dotted_order.startsWith(`${root.dotted_order}.`)).toBe(true);
    expect(child.dotted_order.endsWith(child.id)).toBe(true);
  }
  expect(llm).toMatchObject({
    run_type: "llm",
    prompt_tokens: 12,
    completion_tokens: 5,
    total_tokens: 17,
    inputs: { messages: [{ role: "user", content: "hello" }] },
    outputs: { messages: [{ role: "assistant", content: "HELLO" }] },
  });
  expect(llm.extra.metadata).toMatchObject({
    ls_model_name: "gpt-4o-mini",
    ls_provider: "openai",
    "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
  });
  expect(tool.status).toBe("error");
  expect(tool.error).toBe("the tool broke");
  expect(tool.events.map((e: any) => e.name)).toEqual(["exception"]);
  // Times keep the spans' microseconds.
  const start = spans.find((s) => s.name === "agent")!.startTime;
  expect(root.start_time.slice(0, 19)).toBe(new Date(start[0] * 1000).toISOString().slice(0, 19));
  expect(root.start_time.slice(20, 26)).toBe(String(Math.floor(start[1] / 1000)).padStart(6, "0"));
  return { root, llm, tool };
}

describe("OTLP/HTTP from the OpenTelemetry SDK's exporters", () => {
  it("protobuf, gzip, children before their parent: one trace with parentage, tokens, model, error", async () => {
    const project = uniqueName("otel-proto");
    const spans = recordTrace();
    const exporter = new ProtoExporter({
      url: otlpUrl(),
      headers: exporterHeaders(tenant.keys.editor, project),
      compression: "gzip" as never,
    });
    const root = spans.filter((s) => !s.parentSpanContext);
    const children = spans.filter((s) => s.parentSpanContext);
    expect((await exportWith(exporter, children)).code).toBe(0);
    const early = await projectRuns(tenant.keys.viewer, project);
    expect(early.runs).toHaveLength(2);
    expect(early.runs.every((r) => r.dotted_order === null && r.parent_run_id)).toBe(true);
    expect((await exportWith(exporter, root)).code).toBe(0);
    const { runs } = await projectRuns(tenant.keys.viewer, project);
    expectAgentTrace(runs, spans);
    // The SDK reads the trace whole.
    const inTrace = await api("/api/v1/runs/query", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { trace: runs[0].trace_id },
    });
    expect(inTrace.body.runs).toHaveLength(3);
    await exporter.shutdown();
  });

  it("JSON: the same trace, and a retried export (also concurrent) stores nothing twice", async () => {
    const project = uniqueName("otel-json");
    const spans = recordTrace();
    const exporter = new JsonExporter({
      url: otlpUrl(),
      headers: exporterHeaders(tenant.keys.editor, project),
    });
    expect((await exportWith(exporter, spans)).code).toBe(0);
    const first = await projectRuns(tenant.keys.viewer, project);
    const { root } = expectAgentTrace(first.runs, spans);
    const again = await Promise.all([0, 1, 2].map(() => exportWith(exporter, spans)));
    expect(again.map((r) => r.code)).toEqual([0, 0, 0]);
    const after = await projectRuns(tenant.keys.viewer, project);
    expect(after.runs.map((r) => r.id).sort()).toEqual(first.runs.map((r) => r.id).sort());
    expect((await api(`/api/v1/runs/${root.id}`, { key: tenant.keys.viewer })).body.name).toBe(
      "agent",
    );
    await exporter.shutdown();
  });

  it("keeps the runs in the key's workspace: another workspace sees nothing, a viewer cannot write", async () => {
    const project = uniqueName("otel-private");
    const spans = recordTrace();
    const mine = new ProtoExporter({
      url: otlpUrl(),
      headers: exporterHeaders(tenant.keys.editor, project),
    });
    expect((await exportWith(mine, spans)).code).toBe(0);
    const { runs } = await projectRuns(tenant.keys.viewer, project);
    expect(runs).toHaveLength(3);

    const theirs = await projectRuns(other.keys.editor, project);
    expect(theirs.runs).toEqual([]);
    const read = await api(`/api/v1/runs/${runs[0].id}`, { key: other.keys.editor });
    expect(read.status).toBe(404);
    const byTrace = await api("/api/v1/runs/query", {
      key: other.keys.editor,
      method: "POST",
      body: { trace: runs[0].trace_id },
    });
    expect(byTrace.body.runs).toEqual([]);

    const viewer = await fetch(otlpUrl(), {
      method: "POST",
      headers: { "x-api-key": tenant.keys.viewer, "content-type": "application/x-protobuf" },
      body: new Uint8Array(ProtobufTraceSerializer.serializeRequest(spans)!),
    });
    expect(viewer.status).toBe(403);
    expect(await viewer.json()).toMatchObject({ code: "forbidden" });
    const anonymous = await fetch(otlpUrl(), {
      method: "POST",
      headers: { "content-type": "application/x-protobuf" },
      body: new Uint8Array(ProtobufTraceSerializer.serializeRequest(spans)!),
    });
    expect(anonymous.status).toBe(401);
    // The same spans sent by another workspace are its own runs, not a conflict with ours.
    const theirExporter = new ProtoExporter({
      url: otlpUrl(),
      headers: exporterHeaders(other.keys.editor, project),
    });
    expect((await exportWith(theirExporter, spans)).code).toBe(0);
    const theirRuns = (await projectRuns(other.keys.viewer, project)).runs;
    expect(theirRuns).toHaveLength(3);
    expect(theirRuns.some((r) => runs.some((m) => m.id === r.id))).toBe(false);
    expect((await projectRuns(tenant.keys.viewer, project)).runs).toHaveLength(3);
    await Promise.all([mine.shutdown(), theirExporter.shutdown()]);
  });
});

/** An OTLP/JSON request as the spec writes it (hex ids, nanosecond strings). */
function jsonExport(spans: Record<string, unknown>[], resource: Record<string, string> = {}) {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: Object.entries(resource).map(([key, value]) => ({
            key,
            value: { stringValue: value },
          })),
        },
        scopeSpans: [{ scope: { name: "hand" }, spans }],
      },
    ],
  };
}

const hex = (bytes: number) =>
  Array.from({ length: bytes * 2 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join(
    "",
  );

function jsonSpan(overrides: Record<string, unknown> = {}) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: hex(16),
    spanId: hex(8),
    name: "step",
    kind: 1,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 5_000_000n),
    attributes: [{ key: "gen_ai.usage.prompt_tokens", value: { intValue: "4" } }],
    status: {},
    ...overrides,
  };
}

async function postOtlp(body: BodyInit, headers: Record<string, string>, key = tenant.keys.editor) {
  const res = await fetch(otlpUrl(), {
    method: "POST",
    headers: { "x-api-key": key, ...headers },
    body,
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // a protobuf answer stays text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

describe("OTLP/HTTP answers", () => {
  it("answers in the request's encoding; refused spans are counted and the rest stored", async () => {
    const service = uniqueName("otel-service");
    const good = jsonSpan({ name: "kept" });
    const bad = jsonSpan({ name: "refused", spanId: "0000000000000000" });
    const old = jsonSpan({
      name: "too-old",
      startTimeUnixNano: "1000000000",
      endTimeUnixNano: "2000000000",
    });
    const res = await postOtlp(
      JSON.stringify(jsonExport([good, bad, old], { "service.name": service })),
      {
        "content-type": "application/json",
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.partialSuccess.rejectedSpans).toBe("2");
    expect(res.body.partialSuccess.errorMessage).toContain("span_id must be 8 bytes");
    expect(res.body.partialSuccess.errorMessage).toContain("retention");
    // No Langsmith-Project header: the resource's service.name names the project.
    const { runs } = await projectRuns(tenant.keys.viewer, service);
    expect(runs.map((r) => r.name)).toEqual(["kept"]);
    expect(runs[0].prompt_tokens).toBe(4);

    const full = await postOtlp(
      JSON.stringify(jsonExport([jsonSpan()], { "service.name": service })),
      {
        "content-type": "application/json; charset=utf-8",
      },
    );
    expect(full.status).toBe(200);
    expect(full.body).toEqual({});

    const spans = recordTrace("unknown_service:node");
    const proto = await fetch(otlpUrl(), {
      method: "POST",
      headers: { "x-api-key": tenant.keys.editor, "content-type": "application/x-protobuf" },
      body: new Uint8Array(ProtobufTraceSerializer.serializeRequest(spans)!),
    });
    expect(proto.status).toBe(200);
    expect(proto.headers.get("content-type")).toBe("application/x-protobuf");
    const answer = new Uint8Array(await proto.arrayBuffer());
    expect(ProtobufTraceSerializer.deserializeResponse(answer)).toEqual({});
    // A refused span in a protobuf export: the partial success is protobuf too.
    const memory = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(memory)],
    }).getTracer("old");
    // A number would be read as performance.now(): a Date is an instant.
    tracer.startSpan("from-1970", { startTime: new Date(1000) }).end(new Date(2000));
    const refused = await fetch(otlpUrl(), {
      method: "POST",
      headers: { "x-api-key": tenant.keys.editor, "content-type": "application/x-protobuf" },
      body: new Uint8Array(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!),
    });
    expect(refused.status).toBe(200);
    const partial = ProtobufTraceSerializer.deserializeResponse(
      new Uint8Array(await refused.arrayBuffer()),
    );
    expect(partial.partialSuccess?.rejectedSpans).toBe(1);
    expect(partial.partialSuccess?.errorMessage).toContain("retention");
    // The SDK's placeholder service name is no project: those spans went to "default".
    const defaults = await projectRuns(tenant.keys.viewer, "default");
    const traceId = spans[0]!.spanContext().traceId;
    expect(defaults.runs.filter((r) => r.extra.otel?.trace_id === traceId)).toHaveLength(3);
  });

  it("refuses what is not an OTLP export: 400 garbage, 415 other types, 413 past the size", async () => {
    const garbage = await postOtlp(new Uint8Array([0xff, 0xff, 0xff, 0x0f, 0x01]), {
      "content-type": "application/x-protobuf",
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ code: "bad_request" });
    expect(typeof garbage.body.detail).toBe("string");
    const notJson = await postOtlp("{nope", { "content-type": "application/json" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ detail: "The body is not JSON", code: "bad_request" });
    const badId = await postOtlp(JSON.stringify(jsonExport([jsonSpan({ traceId: "xyz" })])), {
      "content-type": "application/json",
    });
    expect(badId.status).toBe(400);

    const text = await postOtlp("hello", { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe("unsupported_media_type");
    const brotli = await postOtlp("x", {
      "content-type": "application/json",
      "content-encoding": "br",
    });
    expect(brotli.status).toBe(415);

    const bomb = gzipSync(Buffer.alloc(11 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    const inflated = await postOtlp(new Uint8Array(bomb), {
      "content-type": "application/x-protobuf",
      "content-encoding": "gzip",
    });
    expect(inflated.status).toBe(413);
    expect(inflated.body.code).toBe("payload_too_large");
    const notGzip = await postOtlp("plain", {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    expect(notGzip.status).toBe(400);
    const large = await postOtlp(new Uint8Array(10 * 1024 * 1024 + 1), {
      "content-type": "application/x-protobuf",
    });
    expect(large.status).toBe(413);
  });

  it("stores odd but decodable spans without failing the export", async () => {
    const project = uniqueName("otel-odd");
    const odd = jsonSpan({
      name: "odd",
      kind: "SPAN_KIND_SERVER",
      status: { code: "STATUS_CODE_ERROR" },
      attributes: [
        {
          key: "__proto__",
          value: {
            kvlistValue: { values: [{ key: "gen_ai.request.model", value: { stringValue: "x" } }] },
          },
        },
        { key: "gen_ai.prompt.0.__proto__", value: { stringValue: "x" } },
        { key: "big", value: { intValue: "9223372036854775807" } },
        {
          key: "list",
          value: { arrayValue: { values: [{ doubleValue: 1.5 }, { boolValue: true }] } },
        },
      ],
      events: [{ name: "far", timeUnixNano: 1e30, attributes: [] }],
    });
    const res = await postOtlp(JSON.stringify(jsonExport([odd])), {
      "content-type": "application/json",
      "langsmith-project": project,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const [run] = (await projectRuns(tenant.keys.viewer, project)).runs;
    expect(run).toMatchObject({ name: "odd", run_type: "chain", status: "error", error: "ERROR" });
    expect(run.extra.metadata).toMatchObject({ big: "9223372036854775807", list: [1.5, true] });
    expect(run.extra.metadata.ls_model_name).toBeUndefined();
    expect(run.events).toEqual([{ name: "far", time: null, kwargs: {} }]);
  });

  it("takes a gzip JSON body and the project from the Langsmith-Project header", async () => {
    const project = uniqueName("otel-gzip");
    const span = jsonSpan({ name: "zipped" });
    const body = gzipSync(JSON.stringify(jsonExport([span], { "service.name": "ignored" })));
    const res = await postOtlp(new Uint8Array(body), {
      "content-type": "application/json",
      "content-encoding": "gzip",
      "langsmith-project": project,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const { runs } = await projectRuns(tenant.keys.viewer, project);
    expect(runs.map((r) => [r.name, r.extra.otel.span_id])).toEqual([["zipped", span.spanId]]);
  });

  it("answers every other method on the path with the contract's 404", async () => {
    const res = await api("/api/v1/otel/v1/traces", { key: tenant.keys.editor });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Not Found", code: "not_found" });
    expect(
      (await api("/api/v1/otel/v1/metrics", { key: tenant.keys.editor, method: "POST" })).status,
    ).toBe(404);
  });
});
