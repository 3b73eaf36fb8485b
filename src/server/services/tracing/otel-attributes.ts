import type { AttributeValue, Attributes, OtlpSpan } from "./otlp-decode";
import { nanosToIso } from "./time";

// A span's attributes and events as run fields: the OpenTelemetry GenAI semantic conventions
// (model, token usage, prompt and completion), the reference platform's own `langsmith.*`
// attributes (what its OTel exporter sets), and everything else kept as metadata.

const RUN_TYPES = new Set(["llm", "chain", "tool", "retriever", "embedding", "prompt", "parser"]);
const OPERATION_RUN_TYPES: Record<string, string> = {
  chat: "llm",
  text_completion: "llm",
  generate_content: "llm",
  embeddings: "embedding",
  execute_tool: "tool",
  invoke_agent: "chain",
  create_agent: "chain",
};
const MESSAGE_EVENTS: Record<string, string> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};
/** Attributes that become inputs or outputs (kept out of the metadata: they can be large). */
const PAYLOAD = /^gen_ai\.(prompt|completion|input\.messages|output\.messages)(\.|$)/;

export interface SpanFields {
  name: string;
  run_type: string;
  inputs: Record<string, unknown> | undefined;
  outputs: Record<string, unknown> | undefined;
  error: string | null;
  events: { name: string; time: string | null; kwargs: Attributes }[];
  tags: string[] | undefined;
  metadata: Record<string, unknown>;
  session_name: string | undefined;
  session_id: string | undefined;
}

const text = (v: AttributeValue | undefined) => (typeof v === "string" && v !== "" ? v : undefined);
const count = (v: AttributeValue | undefined) =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined;

/** A payload attribute: JSON text parsed (an object as it is, a list as messages), else text. */
function payload(
  value: AttributeValue | undefined,
  key: string,
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { [key]: value };
    }
  }
  if (Array.isArray(parsed)) return { messages: parsed };
  if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  return { [key]: parsed };
}

/** OpenLLMetry's indexed form: `gen_ai.prompt.0.role`, `gen_ai.prompt.0.content`, ... */
function indexedMessages(attrs: Attributes, prefix: string): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  const pattern = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d+)\\.(.+)$`);
  for (const [key, value] of Object.entries(attrs)) {
    const m = pattern.exec(key);
    if (!m) continue;
    const index = Number(m[1]);
    if (index >= 1000 || m[2] === "__proto__") continue;
    (messages[index] ??= {})[m[2]!] = value;
  }
  return messages.filter(Boolean);
}

function inputsOf(span: OtlpSpan): Record<string, unknown> | undefined {
  const a = span.attributes;
  const direct =
    payload(a["gen_ai.prompt"], "input") ?? payload(a["gen_ai.input.messages"], "input");
  if (direct) return direct;
  const indexed = indexedMessages(a, "gen_ai.prompt");
  if (indexed.length) return { messages: indexed };
  const events = span.events
    .filter((e) => MESSAGE_EVENTS[e.name])
    .map((e) => ({ role: MESSAGE_EVENTS[e.name], ...e.attributes }));
  return events.length ? { messages: events } : undefined;
}

function outputsOf(span: OtlpSpan): Record<string, unknown> | undefined {
  const a = span.attributes;
  const direct =
    payload(a["gen_ai.completion"], "output") ?? payload(a["gen_ai.output.messages"], "output");
  if (direct) return direct;
  const indexed = indexedMessages(a, "gen_ai.completion");
  if (indexed.length) return { messages: indexed };
  const choices = span.events.filter((e) => e.name === "gen_ai.choice").map((e) => e.attributes);
  return choices.length ? { choices } : undefined;
}

/** Status ERROR: its message, else the recorded exception, else "ERROR". */
function errorOf(span: OtlpSpan): string | null {
  if (span.status.code !== 2) return null;
  if (span.status.message) return span.status.message;
  const exception = span.events.find((e) => e.name === "exception")?.attributes;
  const type = text(exception?.["exception.type"]);
  const message = text(exception?.["exception.message"]);
  if (type || message) return [type, message].filter(Boolean).join(": ");
  return "ERROR";
}

function runTypeOf(a: Attributes): string {
  const declared = text(a["langsmith.span.kind"])?.toLowerCase();
  if (declared && RUN_TYPES.has(declared)) return declared;
  const operation = text(a["gen_ai.operation.name"]);
  if (operation && OPERATION_RUN_TYPES[operation]) return OPERATION_RUN_TYPES[operation];
  const genAi =
    a["gen_ai.request.model"] !== undefined ||
    a["gen_ai.response.model"] !== undefined ||
    a["gen_ai.system"] !== undefined ||
    a["gen_ai.provider.name"] !== undefined;
  return genAi ? "llm" : "chain";
}

/** Token usage as the store reads it (`usage_metadata`, as the SDK reports LangChain's). */
function usageOf(a: Attributes): Record<string, number> | undefined {
  const input = count(a["gen_ai.usage.input_tokens"]) ?? count(a["gen_ai.usage.prompt_tokens"]);
  const output =
    count(a["gen_ai.usage.output_tokens"]) ?? count(a["gen_ai.usage.completion_tokens"]);
  const total =
    count(a["gen_ai.usage.total_tokens"]) ??
    count(a["llm.usage.total_tokens"]) ??
    (input !== undefined && output !== undefined ? input + output : undefined);
  if (input === undefined && output === undefined && total === undefined) return undefined;
  return {
    ...(input !== undefined ? { input_tokens: input } : {}),
    ...(output !== undefined ? { output_tokens: output } : {}),
    ...(total !== undefined ? { total_tokens: total } : {}),
  };
}

function tagsOf(value: AttributeValue | undefined): string[] | undefined {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const tags = list.filter((t): t is string => typeof t === "string" && t.trim() !== "");
  return tags.length ? tags.map((t) => t.trim().slice(0, 256)).slice(0, 256) : undefined;
}

export function spanFields(span: OtlpSpan): SpanFields {
  const a = span.attributes;
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) {
    if (PAYLOAD.test(key)) continue;
    if (key.startsWith("langsmith.metadata."))
      metadata[key.slice("langsmith.metadata.".length)] = value;
    else if (!key.startsWith("langsmith.")) metadata[key] = value;
  }
  const model = text(a["gen_ai.request.model"]) ?? text(a["gen_ai.response.model"]);
  if (model) metadata.ls_model_name = model;
  const provider = text(a["gen_ai.provider.name"]) ?? text(a["gen_ai.system"]);
  if (provider) metadata.ls_provider = provider;
  const usage = usageOf(a);
  if (usage) metadata.usage_metadata = usage;
  return {
    name: text(a["langsmith.trace.name"]) ?? (span.name || "span"),
    run_type: runTypeOf(a),
    inputs: inputsOf(span),
    outputs: outputsOf(span),
    error: errorOf(span),
    events: span.events
      .filter((e) => !MESSAGE_EVENTS[e.name] && e.name !== "gen_ai.choice")
      .map((e) => ({ name: e.name, time: nanosToIso(e.timeUnixNano), kwargs: e.attributes })),
    tags: tagsOf(a["langsmith.span.tags"]),
    metadata,
    session_name: text(a["langsmith.trace.session_name"]),
    session_id: text(a["langsmith.trace.session_id"]),
  };
}
