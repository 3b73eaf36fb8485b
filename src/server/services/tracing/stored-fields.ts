import { Readable } from "node:stream";
import { log } from "@/server/log";
import { TRACING_OBJECT_PATH, uploadStore } from "@/server/storage";
import { inStorage, tracingObjectOf } from "./attachments";
import { TRACING_INLINE_FIELD_BYTES, TRACING_MAX_BODY_BYTES } from "./limits";
import type { RunRow, StoredRun } from "./run-store";

// Large inputs and outputs: past TRACING_INLINE_FIELD_BYTES they live in the storage backend
// (next to the run's attachments, under the run's day), the row keeping `{object, size}` in
// `inputs_ref` / `outputs_ref`. Reading one run loads them whole; a query answers a reference.

export const STORED_FIELDS = ["inputs", "outputs"] as const;
export type StoredField = (typeof STORED_FIELDS)[number];

export interface FieldRef {
  object: string;
  size: number;
}

const refKey = (field: StoredField) => `${field}_ref` as const;

/** Moves the row's large fields to the store, before the row is written. */
export async function storeLargeFields(workspaceId: string, row: RunRow): Promise<void> {
  for (const field of STORED_FIELDS) {
    if (row[field] === null || row[field] === undefined) continue;
    const text = JSON.stringify(row[field]);
    // Measured without a copy: nearly every field stays inline.
    if (Buffer.byteLength(text, "utf8") <= TRACING_INLINE_FIELD_BYTES) continue;
    const bytes = Buffer.from(text, "utf8");
    const object = tracingObjectOf(workspaceId, row.id, row.sort_time, `$${field}`, bytes);
    const size = await inStorage(`store ${field}`, () =>
      uploadStore().put(object, Readable.from([bytes]), TRACING_MAX_BODY_BYTES),
    );
    row[field] = null;
    row[refKey(field)] = { object, size };
  }
}

const asRef = (value: unknown): FieldRef | null =>
  value &&
  typeof value === "object" &&
  typeof (value as FieldRef).object === "string" &&
  TRACING_OBJECT_PATH.test((value as FieldRef).object)
    ? (value as FieldRef)
    : null;

/** The objects a row's references name (to delete them with it). */
export const fieldObjects = (row: { inputs_ref?: unknown; outputs_ref?: unknown }) =>
  [asRef(row.inputs_ref)?.object, asRef(row.outputs_ref)?.object].filter(
    (o): o is string => typeof o === "string",
  );

/** A stored field's value, read back whole. */
async function loadField(ref: FieldRef): Promise<unknown> {
  return inStorage("read a stored field", async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of await uploadStore().open(ref.object)) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  });
}

/** GET /runs/{id}: the run's stored fields in place of their references. */
export async function withStoredFields(
  row: StoredRun,
  run: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  for (const field of STORED_FIELDS) {
    const ref = asRef(row[refKey(field)]);
    if (!ref) continue;
    run[`${field}_s3_urls`] = null;
    // Gone from the store (a delete cut short, or restored rows): read as absent.
    if (await inStorage("find a stored field", () => uploadStore().exists(ref.object)))
      run[field] = await loadField(ref);
    else log.warn("tracing stored field missing", { run_id: row.id, field, object: ref.object });
  }
  return run;
}

/**
 * In a run as a query answers it: a stored field is null, and `<field>_s3_urls` (the SDK's
 * Run field for bodies kept in object storage) says where the whole run is read.
 */
export function storedFieldMarkers(row: StoredRun): Record<string, unknown> {
  const markers: Record<string, unknown> = {};
  for (const field of STORED_FIELDS) {
    const ref = asRef(row[refKey(field)]);
    markers[`${field}_s3_urls`] = ref
      ? { ROOT: { presigned_url: `/api/v1/runs/${row.id}`, s3_url: null, size: ref.size } }
      : null;
  }
  return markers;
}
