import { randomUUID } from "node:crypto";
import { inject } from "vitest";

// Builds what the tracing SDK sends, for tests that need a part or a body it would not make.

/** The tracing base the SDK is pointed at. */
export const tracingUrl = () => `${inject("baseUrl")}/api/v1`;

/** A dotted_order segment's time: `YYYYMMDDTHHMMSSffffff` (microseconds). */
function stamp(time: Date, micros = 0): string {
  const iso = time.toISOString(); // 2026-11-29T00:48:04.123Z
  const ms = iso.slice(20, 23);
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${ms}${String(micros).padStart(3, "0")}`;
}

/** A run as the SDK posts it; `parent` makes it a child (its dotted_order extends the parent's). */
export function sdkRun(
  overrides: Record<string, unknown> = {},
  parent?: { id: string; dotted_order: string; trace_id: string },
  time = new Date(),
) {
  const id = (overrides.id as string | undefined) ?? randomUUID();
  const own = `${stamp(time)}Z${id}`;
  return {
    id,
    name: "step",
    run_type: "chain",
    start_time: time.getTime(),
    trace_id: parent?.trace_id ?? id,
    parent_run_id: parent?.id,
    dotted_order: parent ? `${parent.dotted_order}.${own}` : own,
    session_name: "tests",
    inputs: { question: "hi" },
    ...overrides,
  };
}

export interface Part {
  name: string;
  data: string | Buffer;
  type?: string;
}

/** A multipart body as the SDK writes it: no filename, `application/json; length=N` parts. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----HangarTest${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const data = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data);
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\nContent-Type: ${part.type ?? `application/json; length=${data.length}`}\r\n\r\n`,
      ),
      data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The parts of one run post: the run, then its inputs as their own part (as the SDK splits them). */
export function postParts(run: Record<string, unknown>, kind: "post" | "patch" = "post"): Part[] {
  const { inputs, outputs, ...rest } = run;
  const parts: Part[] = [{ name: `${kind}.${run.id}`, data: JSON.stringify(rest) }];
  if (inputs !== undefined)
    parts.push({ name: `${kind}.${run.id}.inputs`, data: JSON.stringify(inputs) });
  if (outputs !== undefined)
    parts.push({ name: `${kind}.${run.id}.outputs`, data: JSON.stringify(outputs) });
  return parts;
}

/** POSTs a multipart body to the tracing base. */
export async function postMultipart(
  key: string,
  parts: Part[],
  headers: Record<string, string> = {},
) {
  const { body, contentType } = multipart(parts);
  const res = await fetch(`${tracingUrl()}/runs/multipart`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": contentType, ...headers },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
