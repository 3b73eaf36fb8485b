import protobuf from "protobufjs/light";
import descriptor from "./otlp/trace-service.json";

// OTLP/HTTP trace export bodies, protobuf or JSON, read into one shape. The protobuf messages
// come from the official opentelemetry-proto definitions (./otlp/proto, v1.11.0) compiled to a
// protobufjs descriptor (scripts/otlp-descriptor.ts): @opentelemetry/otlp-transformer no longer
// ships a request decoder (its 0.2xx line writes protobuf by hand and reads only responses).

const root = protobuf.Root.fromJSON(descriptor);
const ExportRequest = root.lookupType(
  "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest",
);
const ExportResponse = root.lookupType(
  "opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse",
);

export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export interface OtlpEvent {
  name: string;
  /** Unix nanoseconds, as decimal text (beyond 2^53). */
  timeUnixNano: string;
  attributes: Attributes;
}

export interface OtlpSpan {
  /** Lowercase hex: 32 digits for the trace, 16 for spans ("" when absent). */
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attributes;
  events: OtlpEvent[];
  /** Status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: Attributes;
  scope: { name: string; version: string };
}

/** A body that is not an OTLP export request (the route answers 400). */
export class OtlpDecodeError extends Error {}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {};
const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
/** Own fields only: a decoded protobuf message holds every default on its prototype. */
const has = (v: Obj, key: string) => Object.hasOwn(v, key);

/** An id as bytes (protobuf) or text (JSON: hex as the spec says; base64 from older senders). */
function idHex(value: unknown, bytes: number): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (typeof value !== "string" || value === "") return "";
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`, "i").test(value)) return value.toLowerCase();
  const decoded = Buffer.from(value, "base64");
  if (decoded.length === bytes && decoded.toString("base64") === value)
    return decoded.toString("hex");
  throw new OtlpDecodeError(`Not a ${bytes}-byte id: ${value.slice(0, 64)}`);
}

/** fixed64 nanoseconds: a protobufjs Long, a decimal string (JSON) or a number. */
function nanos(value: unknown): string {
  if (value === undefined || value === null || value === "") return "0";
  if (typeof value === "number" && Number.isFinite(value) && value >= 0)
    return BigInt(Math.round(value)).toString();
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return BigInt(value).toString();
  if (typeof value === "object" && "low" in value && "high" in value) {
    const { low, high } = value as { low: number; high: number };
    return ((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
  }
  throw new OtlpDecodeError("A time is not unix nanoseconds");
}

function anyValue(value: unknown, depth = 0): AttributeValue {
  if (depth > 32) throw new OtlpDecodeError("Attribute values nest too deeply");
  const v = asObj(value);
  if (has(v, "stringValue")) return str(v.stringValue);
  if (has(v, "boolValue")) return Boolean(v.boolValue);
  if (has(v, "intValue")) {
    const text = typeof v.intValue === "object" ? nanosSigned(v.intValue) : String(v.intValue);
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (has(v, "doubleValue")) return Number(v.doubleValue);
  if (has(v, "arrayValue"))
    return asArr(asObj(v.arrayValue).values).map((x) => anyValue(x, depth + 1));
  if (has(v, "kvlistValue")) return attributes(asObj(v.kvlistValue).values, depth + 1);
  if (has(v, "bytesValue"))
    return v.bytesValue instanceof Uint8Array
      ? Buffer.from(v.bytesValue).toString("base64")
      : str(v.bytesValue);
  return null;
}

function nanosSigned(value: unknown): string {
  const { low, high } = value as { low: number; high: number };
  return BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0)).toString();
}

/** A status code as a number, or as the enum's name (some JSON senders). */
function statusCode(value: unknown): number {
  if (typeof value === "string") return value.endsWith("ERROR") ? 2 : value.endsWith("OK") ? 1 : 0;
  return Number(value ?? 0) || 0;
}

function attributes(list: unknown, depth = 0): Attributes {
  const out: Attributes = {};
  for (const kv of asArr(list)) {
    const { key, value } = asObj(kv);
    // "__proto__" would set the object's prototype, not a field.
    if (typeof key === "string" && key !== "" && key !== "__proto__")
      out[key] = anyValue(value, depth);
  }
  return out;
}

/** Both encodings use the same field names once protobufjs has camel-cased the protobuf ones. */
function spansOf(request: Obj): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const rs of asArr(request.resourceSpans)) {
    const resource = attributes(asObj(asObj(rs).resource).attributes);
    for (const ss of asArr(asObj(rs).scopeSpans)) {
      const scope = asObj(asObj(ss).scope);
      for (const raw of asArr(asObj(ss).spans)) {
        const s = asObj(raw);
        const status = asObj(s.status);
        spans.push({
          traceId: idHex(s.traceId, 16),
          spanId: idHex(s.spanId, 8),
          parentSpanId: idHex(s.parentSpanId, 8),
          name: str(s.name),
          kind: Number(s.kind ?? 0) || 0,
          startTimeUnixNano: nanos(s.startTimeUnixNano),
          endTimeUnixNano: nanos(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: asArr(s.events).map((e) => ({
            name: str(asObj(e).name),
            timeUnixNano: nanos(asObj(e).timeUnixNano),
            attributes: attributes(asObj(e).attributes),
          })),
          status: { code: statusCode(status.code), message: str(status.message) },
          resource,
          scope: { name: str(scope.name), version: str(scope.version) },
        });
      }
    }
  }
  return spans;
}

/** The spans of an `application/x-protobuf` ExportTraceServiceRequest. */
export function decodeProtobufRequest(body: Uint8Array): OtlpSpan[] {
  let message: protobuf.Message;
  try {
    message = ExportRequest.decode(body);
  } catch (error) {
    throw new OtlpDecodeError(`Not an ExportTraceServiceRequest: ${(error as Error).message}`);
  }
  return spansOf(message as unknown as Obj);
}

/** The spans of an `application/json` ExportTraceServiceRequest (OTLP's JSON mapping). */
export function decodeJsonRequest(text: string): OtlpSpan[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OtlpDecodeError("The body is not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new OtlpDecodeError("The body is not an ExportTraceServiceRequest object");
  return spansOf(parsed as Obj);
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** ExportTraceServiceResponse: empty on full success (the spec leaves partial_success unset). */
export function encodeProtobufResponse(partial: PartialSuccess | null): Uint8Array {
  const message = ExportResponse.fromObject(
    partial
      ? {
          partialSuccess: {
            rejectedSpans: partial.rejectedSpans,
            errorMessage: partial.errorMessage,
          },
        }
      : {},
  );
  return ExportResponse.encode(message).finish();
}

export function encodeJsonResponse(partial: PartialSuccess | null): Record<string, unknown> {
  return partial
    ? {
        partialSuccess: {
          rejectedSpans: String(partial.rejectedSpans),
          errorMessage: partial.errorMessage,
        },
      }
    : {};
}
