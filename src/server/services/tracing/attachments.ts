import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { AttachmentDownload } from "@/schemas/tracing";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { AppError, forbidden, notFound } from "@/server/errors";
import { describeError, log } from "@/server/log";
import { TRACING_OBJECT_PATH, uploadStore } from "@/server/storage";
import {
  checkAttachmentSignature,
  storedAttachments,
  type StoredAttachment,
} from "./attachment-urls";
import { isUuid } from "./ids";
import { TRACING_MAX_PART_BYTES } from "./limits";
import { runStore } from "./run-store";

// Run attachments (the SDK's `attachment.<run id>.<name>` multipart parts): their bytes in the
// storage backend (S3, or encrypted files under HANGAR_DATA_DIR), the run's `attachments`
// column naming them. Read back only through the run, inside its workspace: with its API key, or
// at a presigned_url the workspace's read handed out (attachment-urls.ts), served at
// `/public/download` so that the spec's Public download row limits it.

/** Letters, digits, `_`, `-` and spaces (not first), at most 128: no dots, no slashes. */
export const ATTACHMENT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9 _-]{0,127}$/;

export interface AttachmentUpload {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

const MIME = /^[\w.+-]{1,127}\/[\w.+-]{1,127}$/;

/** A storage backend failure is a 503 naming the backend (logged), never a bare 500. */
export async function inStorage<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.error("tracing storage failed", { what, ...describeError(error) });
    throw new AppError("unavailable", "Service unavailable: the storage backend cannot be reached");
  }
}

/**
 * Where a run's stored bytes go: ids and a hash of (label, content), never anything the caller
 * wrote. The content's hash keeps a retried post from overwriting the bytes a patch replaced.
 */
export function tracingObjectOf(
  workspaceId: string,
  runId: string,
  sortTime: string,
  label: string,
  bytes: Buffer,
) {
  const day = sortTime.slice(0, 10).replaceAll("-", "");
  const content = createHash("sha256").update(bytes).digest("hex");
  // The run's time too: an object belongs to one row, (id, sort_time), never to two.
  const hash = createHash("sha256").update(`${sortTime}\0${label}\0${content}`).digest("hex");
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
    const object = tracingObjectOf(workspaceId, runId, sortTime, upload.name, upload.bytes);
    const size = await inStorage("store an attachment", () =>
      uploadStore().put(object, Readable.from([upload.bytes]), TRACING_MAX_PART_BYTES),
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

/** The objects an attachments map names. */
export const attachmentObjects = (value: unknown): string[] =>
  Object.values(storedAttachments(value)).map((a) => a.object);

/**
 * Deletes stored objects (a refused write's, a deleted project's runs'). Best effort: a storage
 * failure never fails the delete of rows; an object left behind goes with its day's retention.
 */
export async function removeStoredObjects(objects: (string | null | undefined)[]): Promise<void> {
  for (const object of objects) {
    if (typeof object !== "string" || !TRACING_OBJECT_PATH.test(object)) continue;
    await uploadStore()
      .remove(object)
      .catch((error: unknown) =>
        log.warn("tracing object not deleted (retention will)", {
          object,
          ...describeError(error),
        }),
      );
  }
}

export interface AttachmentFile {
  body: Readable;
  mimeType: string;
  size: number;
}

/** One attachment's bytes: 404 unless the run is the caller's workspace's and has it. */
export function openAttachment(
  db: DbClient,
  actor: Actor,
  runId: string,
  name: string,
): Promise<AttachmentFile> {
  return openInWorkspace(db, actor.workspaceId, runId, name);
}

/**
 * The same at a presigned_url (`/public/download`), without a key: its signature first (an
 * altered or expired URL is a 403), then the run in the workspace the URL names (404 as with a
 * key).
 */
export function openSignedAttachment(
  db: DbClient,
  download: AttachmentDownload,
): Promise<AttachmentFile> {
  const { workspace: workspaceId, run_id: runId, name } = download;
  const check = checkAttachmentSignature(
    { workspaceId, runId, name },
    download.expires,
    download.signature,
  );
  if (check === "invalid") throw forbidden("The attachment URL's signature is not valid.");
  if (check === "expired") throw forbidden("The attachment URL has expired: read the run again.");
  return openInWorkspace(db, workspaceId, runId, name);
}

async function openInWorkspace(
  db: DbClient,
  workspaceId: string,
  runId: string,
  name: string,
): Promise<AttachmentFile> {
  const [run] = isUuid(runId)
    ? await runStore.findRuns(db, {
        workspaceId,
        ids: [runId],
        order: "desc",
        limit: 1,
      })
    : [];
  if (!run) throw notFound(`Run ${runId} not found`);
  const stored = Object.hasOwn(storedAttachments(run.attachments), name)
    ? storedAttachments(run.attachments)[name]!
    : null;
  if (!stored || TRACING_OBJECT_PATH.exec(stored.object)?.[2] !== workspaceId)
    throw notFound(`Run ${runId} has no attachment ${name}`);
  // Gone from the store (a delete cut short, or restored rows): absent, not a failure.
  if (!(await inStorage("find an attachment", () => uploadStore().exists(stored.object))))
    throw notFound(`Run ${runId} has no attachment ${name}`);
  return {
    body: await inStorage("read an attachment", () => uploadStore().open(stored.object)),
    mimeType: stored.mime_type,
    size: stored.size,
  };
}

/** The worker's pass: attachments of days past the retention go with their partitions. */
export async function sweepExpiredAttachments(cutoff: Date): Promise<number> {
  return uploadStore().sweepTracing(cutoff.toISOString().slice(0, 10).replaceAll("-", ""));
}
