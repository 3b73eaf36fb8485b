import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { TRACING_OBJECT_PATH, uploadStore } from "@/server/storage";
import { isUuid } from "./ids";
import { TRACING_MAX_PART_BYTES } from "./limits";
import { runStore } from "./run-store";

// Run attachments (the SDK's `attachment.<run id>.<name>` multipart parts): their bytes in the
// storage backend (S3, or encrypted files under HANGAR_DATA_DIR), the run's `attachments`
// column naming them. Read back only through the run, inside its workspace.

/** Letters, digits, `_`, `-` and spaces (not first), at most 128: no dots, no slashes. */
export const ATTACHMENT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9 _-]{0,127}$/;

export interface AttachmentUpload {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

/** What the run's row keeps per attachment name. */
export interface StoredAttachment {
  object: string;
  mime_type: string;
  size: number;
}

const MIME = /^[\w.+-]{1,127}\/[\w.+-]{1,127}$/;

/** The object of a run's attachment: ids and a hash of the name, never the name itself. */
export function attachmentObjectOf(
  workspaceId: string,
  runId: string,
  sortTime: string,
  name: string,
) {
  const day = sortTime.slice(0, 10).replaceAll("-", "");
  const hash = createHash("sha256").update(name).digest("hex");
  const object = `tracing/${day}/${workspaceId}/${runId}/${hash}`;
  if (!TRACING_OBJECT_PATH.test(object)) throw new Error(`Not a tracing object: ${object}`);
  return object;
}

/** Writes a run's attachments to the store; the map its row keeps. */
export async function storeAttachments(
  workspaceId: string,
  runId: string,
  sortTime: string,
  uploads: AttachmentUpload[],
): Promise<Record<string, StoredAttachment>> {
  const stored: Record<string, StoredAttachment> = {};
  for (const upload of uploads) {
    const object = attachmentObjectOf(workspaceId, runId, sortTime, upload.name);
    const size = await uploadStore().put(
      object,
      Readable.from([upload.bytes]),
      TRACING_MAX_PART_BYTES,
    );
    const type = upload.mimeType.split(";")[0]!.trim().toLowerCase();
    stored[upload.name] = {
      object,
      mime_type: MIME.test(type) ? type : "application/octet-stream",
      size,
    };
  }
  return stored;
}

const asStored = (value: unknown): Record<string, StoredAttachment> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, StoredAttachment>)
    : {};

/** Deletes stored objects (a refused write's, a deleted project's runs'). */
export async function removeAttachmentObjects(attachments: unknown[]): Promise<void> {
  for (const map of attachments)
    for (const stored of Object.values(asStored(map)))
      if (TRACING_OBJECT_PATH.test(stored.object)) await uploadStore().remove(stored.object);
}

/** A run's attachments as read: name → type, size and where to download it (with credentials). */
export function attachmentsView(runId: string, value: unknown) {
  return Object.fromEntries(
    Object.entries(asStored(value)).map(([name, stored]) => [
      name,
      {
        mime_type: stored.mime_type,
        size: stored.size,
        download_url: `/api/v1/runs/${runId}/attachments/${encodeURIComponent(name)}`,
      },
    ]),
  );
}

/** One attachment's bytes: 404 unless the run is the caller's workspace's and has it. */
export async function openAttachment(
  db: DbClient,
  actor: Actor,
  runId: string,
  name: string,
): Promise<{ body: Readable; mimeType: string; size: number }> {
  const [run] = isUuid(runId)
    ? await runStore.findRuns(db, {
        workspaceId: actor.workspaceId,
        ids: [runId],
        order: "desc",
        limit: 1,
      })
    : [];
  if (!run) throw notFound(`Run ${runId} not found`);
  const stored = Object.hasOwn(asStored(run.attachments), name)
    ? asStored(run.attachments)[name]!
    : null;
  if (!stored || TRACING_OBJECT_PATH.exec(stored.object)?.[2] !== actor.workspaceId)
    throw notFound(`Run ${runId} has no attachment ${name}`);
  return {
    body: await uploadStore().open(stored.object),
    mimeType: stored.mime_type,
    size: stored.size,
  };
}

/** The worker's pass: attachments of days past the retention go with their partitions. */
export async function sweepExpiredAttachments(cutoff: Date): Promise<number> {
  return uploadStore().sweepTracing(cutoff.toISOString().slice(0, 10).replaceAll("-", ""));
}
