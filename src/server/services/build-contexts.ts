import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { DbClient } from "@/server/db";
import { AppError, conflict, forbidden, notFound } from "@/server/errors";
import {
  buildContextPathOf,
  MAX_UPLOAD_BYTES,
  UploadTooLarge,
  uploadStore,
  type UploadStore,
} from "@/server/storage";
import { buildContextUrl, checkBuildContextSignature } from "@/server/storage/build-context-url";

// A Kubernetes build's context: the prepared folder, packed by the worker into the upload store,
// fetched once by the build Job's init container through a signed URL, and dropped (object and
// row) after the build. The first GET claims the row with one conditional UPDATE.

/** Contexts a dead worker left behind go this long after they were made. */
export const BUILD_CONTEXT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Drops a context's object and row (missing ones are fine). */
export async function dropBuildContext(
  db: DbClient,
  contextId: string,
  store: UploadStore = uploadStore(),
): Promise<void> {
  await store.remove(buildContextPathOf(contextId));
  await db.buildContext.deleteMany({ where: { id: contextId } });
}

/**
 * Stores a packed context and answers the URL that serves it once until `expiresAt` (unix
 * seconds). Refuses one over 200 MiB (413, nothing kept).
 */
export async function publishBuildContext(
  db: DbClient,
  input: { archive: Readable; origin: string; expiresAt: number },
  store: UploadStore = uploadStore(),
): Promise<{ id: string; url: string }> {
  const stale = await db.buildContext.findMany({
    where: { createdAt: { lt: new Date(Date.now() - BUILD_CONTEXT_RETENTION_MS) } },
    select: { id: true },
  });
  for (const { id } of stale) await dropBuildContext(db, id, store);
  const id = randomUUID();
  // The row first: a worker dying mid-upload leaves a row the sweep above finds.
  await db.buildContext.create({ data: { id } });
  try {
    await store.put(buildContextPathOf(id), input.archive, MAX_UPLOAD_BYTES);
  } catch (error) {
    await dropBuildContext(db, id, store);
    if (error instanceof UploadTooLarge)
      throw new AppError(
        "payload_too_large",
        `The build context is larger than ${MAX_UPLOAD_BYTES} bytes (gzipped).`,
      );
    throw error;
  }
  return { id, url: buildContextUrl(input.origin, id, input.expiresAt) };
}

/**
 * The signed GET: the signature and expiry (403), a context that exists (404) and was not
 * fetched before (409). Only the first GET gets the bytes.
 */
export async function fetchBuildContext(
  db: DbClient,
  input: { contextId: string; expires: string | null; signature: string | null },
): Promise<Readable> {
  const check = checkBuildContextSignature(input.contextId, input.expires, input.signature);
  if (check === "invalid") throw forbidden("The build context URL's signature is not valid.");
  if (check === "expired") throw forbidden("The build context URL has expired.");
  const missing = () => notFound(`Build context ${input.contextId} not found.`);
  const claimed = await db.buildContext.updateMany({
    where: { id: input.contextId, fetchedAt: null },
    data: { fetchedAt: new Date() },
  });
  if (claimed.count === 0) {
    const known = await db.buildContext.findUnique({ where: { id: input.contextId } });
    if (known) throw conflict("This build context URL has been used already.");
    throw missing();
  }
  const store = uploadStore();
  const objectPath = buildContextPathOf(input.contextId);
  if (!(await store.exists(objectPath))) throw missing();
  return store.open(objectPath);
}
