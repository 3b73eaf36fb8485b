import {
  getMultipartBoundary,
  MaxPartsExceededError,
  MultipartParser,
  type MultipartPart,
} from "@remix-run/multipart-parser";
import type { NextRequest } from "next/server";
import { AppError } from "@/server/errors";
import type { FeedbackOp } from "@/server/services/tracing/batch";
import { ATTACHMENT_NAME, type AttachmentUpload } from "@/server/services/tracing/attachments";
import type { IngestIssue, RunOp } from "@/server/services/tracing/ingest";
import {
  TRACING_MAX_BODY_BYTES,
  TRACING_MAX_PART_BYTES,
  TRACING_MAX_PARTS,
} from "@/server/services/tracing/limits";
import { refuseEncodedBody } from "./content-encoding";

// The SDK's multipart ingest body (POST /api/v1/runs/multipart), parsed by the Remix project's
// multipart parser (parts as bytes; about half busboy's CPU for the SDK's bodies): parts
// `post.<id>`, `patch.<id>`, `post.<id>.<field>`, `attachment.<id>.<name>`, `feedback.<id>`.
// A bad part becomes an issue of its own; the other parts still make their runs.

export interface MultipartBatch {
  runs: RunOp[];
  feedback: FeedbackOp[];
  issues: IngestIssue[];
}

interface Part {
  name: string;
  bytes: Buffer;
  contentType: string;
}

const RUN_PART = /^(post|patch)\.([^.]+)$/;
const FIELD_PART = /^(post|patch)\.([^.]+)\.(inputs|outputs|events|extra|error|serialized)$/;
const ATTACHMENT_PART = /^attachment\.([^.]+)\.(.+)$/;
const FEEDBACK_PART = /^feedback\.([^.]+)$/;

const tooLarge = () =>
  new AppError(
    "payload_too_large",
    `Request body is larger than ${TRACING_MAX_BODY_BYTES} bytes: split the batch`,
  );

/** `name="..."` without escapes or an extended `name*` (what the SDKs send). */
const PLAIN_NAME = /;\s*name="([^"\\]*)"/i;

/** The part's name: the plain form read directly (the header parser's general path costs more). */
function nameOf(part: MultipartPart): string {
  const disposition = part.headers["content-disposition"] ?? "";
  const plain = disposition.includes("name*") ? undefined : PLAIN_NAME.exec(disposition)?.[1];
  return plain ?? part.name ?? "";
}

/**
 * The body's parts with their exact bytes, read straight from the request's stream. A part past
 * TRACING_MAX_PART_BYTES becomes an issue of its own (413); the body's size and part count
 * bound the whole (413), and a body that is not multipart is a 422.
 */
async function readParts(request: NextRequest, issues: IngestIssue[]): Promise<Part[]> {
  const contentType = request.headers.get("content-type") ?? "";
  const boundary = /^multipart\/form-data\b/i.test(contentType)
    ? getMultipartBoundary(contentType)
    : null;
  if (!boundary)
    throw new AppError(
      "unsupported_media_type",
      "Request body must be multipart/form-data with a boundary",
    );
  if (Number(request.headers.get("content-length") ?? "0") > TRACING_MAX_BODY_BYTES)
    throw tooLarge();
  if (!request.body) return [];
  const parts: Part[] = [];
  // The body's own limit bounds every part (a part past its limit is refused alone, below).
  const parser = new MultipartParser(boundary, {
    maxParts: TRACING_MAX_PARTS,
    maxFileSize: TRACING_MAX_BODY_BYTES,
    maxTotalSize: TRACING_MAX_BODY_BYTES,
  });
  const take = (part: MultipartPart) => {
    const name = nameOf(part);
    // One chunk (nearly every part): its bytes as they are, not a copy.
    const bytes = part.content.length === 1 ? part.content[0]! : part.bytes;
    if (bytes.length > TRACING_MAX_PART_BYTES)
      return issues.push({
        loc: ["body", name],
        msg: `Part ${name} is larger than ${TRACING_MAX_PART_BYTES} bytes`,
        type: "part_too_large",
        status: 413,
      });
    parts.push({
      name,
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      contentType: part.headers["content-type"] ?? "",
    });
  };
  let received = 0;
  try {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      received += chunk.length;
      if (received > TRACING_MAX_BODY_BYTES) throw tooLarge();
      for (const part of parser.write(chunk)) take(part);
    }
    parser.finish();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof MaxPartsExceededError)
      throw new AppError(
        "payload_too_large",
        `A multipart body holds at most ${TRACING_MAX_PARTS} parts: split the batch`,
      );
    throw new AppError("validation", "Malformed multipart body", [
      {
        loc: ["body"],
        msg: `Malformed multipart body: ${(error as Error).message}`,
        type: "multipart_invalid",
      },
    ]);
  }
  return parts;
}

function parseJsonPart(
  part: Part,
  issues: IngestIssue[],
): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(part.bytes.toString("utf8")) };
  } catch (error) {
    issues.push({
      loc: ["body", part.name],
      msg: `JSON decode error: ${(error as Error).message}`,
      type: "json_invalid",
      status: 422,
    });
    return { ok: false };
  }
}

/** Reads and groups the parts: each run's main part with its field parts, feedback, attachments. */
export async function readTracingMultipart(request: NextRequest): Promise<MultipartBatch> {
  refuseEncodedBody(request.headers);
  const issues: IngestIssue[] = [];
  const parts = await readParts(request, issues);
  const runs = new Map<
    string,
    {
      kind: "post" | "patch";
      id: string;
      main?: unknown;
      fields: Record<string, unknown>;
      failed: boolean;
    }
  >();
  const batch: MultipartBatch = { runs: [], feedback: [], issues };
  const attachments = new Map<string, { loc: string; upload: AttachmentUpload }[]>();
  const runOf = (kind: "post" | "patch", id: string) => {
    const key = `${kind}.${id}`;
    let entry = runs.get(key);
    if (!entry) runs.set(key, (entry = { kind, id, fields: {}, failed: false }));
    return entry;
  };
  for (const refused of issues) {
    const m = FIELD_PART.exec(String(refused.loc[1])) ?? RUN_PART.exec(String(refused.loc[1]));
    if (m) runOf(m[1] as "post" | "patch", m[2]!).failed = true;
  }
  for (const part of parts) {
    let m: RegExpExecArray | null;
    if ((m = ATTACHMENT_PART.exec(part.name))) {
      // The name only labels the attachment: stored under ids and a hash (attachments.ts).
      if (!ATTACHMENT_NAME.test(m[2]!)) {
        issues.push({
          loc: ["body", part.name],
          msg: "An attachment's name is letters, digits, spaces, _ and - (at most 128, no dots or slashes): the run was stored without it",
          type: "attachment_name_invalid",
          status: 422,
        });
        continue;
      }
      const list = attachments.get(m[1]!) ?? [];
      list.push({
        loc: part.name,
        upload: { name: m[2]!, mimeType: part.contentType, bytes: part.bytes },
      });
      attachments.set(m[1]!, list);
      continue;
    }
    if (
      !RUN_PART.test(part.name) &&
      !FIELD_PART.test(part.name) &&
      !FEEDBACK_PART.test(part.name)
    ) {
      issues.push({
        loc: ["body", part.name],
        msg: `Unknown part ${part.name}: expected post.<id>, patch.<id>, post.<id>.<field>, attachment.<id>.<name> or feedback.<id>`,
        type: "unknown_part",
        status: 422,
      });
      continue;
    }
    const parsed = parseJsonPart(part, issues);
    if (FEEDBACK_PART.test(part.name)) {
      if (parsed.ok) batch.feedback.push({ loc: ["body", part.name], value: parsed.value });
    } else if ((m = FIELD_PART.exec(part.name))) {
      const entry = runOf(m[1] as "post" | "patch", m[2]!);
      if (parsed.ok) entry.fields[m[3]!] = parsed.value;
      else entry.failed = true;
    } else if ((m = RUN_PART.exec(part.name))) {
      const entry = runOf(m[1] as "post" | "patch", m[2]!);
      if (parsed.ok) entry.main = parsed.value;
      else entry.failed = true;
    }
  }
  for (const [key, entry] of runs) {
    // A run whose own part or one of its fields was refused is not stored half.
    if (entry.failed) continue;
    if (
      entry.main === undefined ||
      typeof entry.main !== "object" ||
      entry.main === null ||
      Array.isArray(entry.main)
    ) {
      issues.push({
        loc: ["body", key],
        msg:
          entry.main === undefined
            ? `Part ${key} is missing (its field parts came alone)`
            : `Part ${key} must be a JSON object`,
        type: "missing",
        status: 422,
      });
      continue;
    }
    const value = { ...(entry.main as Record<string, unknown>), ...entry.fields };
    value.id ??= entry.id;
    if (value.id !== entry.id) {
      issues.push({
        loc: ["body", key, "id"],
        msg: `The run's id is not ${entry.id}`,
        type: "value_error",
        status: 422,
      });
      continue;
    }
    // A run's attachments ride with its post, else its patch (the SDK names them by run id).
    const mine = attachments.get(entry.id);
    const carrier = runs.get(`post.${entry.id}`)?.failed === false ? "post" : "patch";
    const uploads = mine && entry.kind === carrier ? mine.map((a) => a.upload) : undefined;
    if (uploads) attachments.delete(entry.id);
    batch.runs.push({ kind: entry.kind, loc: ["body", key], value, attachments: uploads });
  }
  for (const list of attachments.values())
    for (const { loc } of list)
      issues.push({
        loc: ["body", loc],
        msg: "An attachment needs its run's post or patch part in the same body",
        type: "missing",
        status: 422,
      });
  return batch;
}
