import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { ReadableStream, type ReadableStream as WebReadableStream } from "node:stream/web";
import type { UploadState } from "@/generated/prisma/client";
import { uuid } from "@/schemas/common";
import type { UploadUrl } from "@/schemas/uploads";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db, DbClient } from "@/server/db";
import { AppError, badRequest, conflict, forbidden, notFound } from "@/server/errors";
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_PATH,
  UPLOAD_RETENTION_MS,
  UPLOAD_URL_TTL_SECONDS,
  UploadTooLarge,
  uploadPathOf,
  uploadStore,
} from "@/server/storage";
import { checkUploadSignature } from "@/server/storage/signed-url";
import { recordAudit } from "./audit/record";
import { findDeployment } from "./deployments/find";

// Each upload URL has a row (uploads): one successful PUT claims it (ISSUED -> UPLOADING ->
// STORED), one revision's build claims what was stored (-> BUILT). Every claim is one
// conditional UPDATE, so racing requests and workers cannot both win.

/**
 * A URL the deploy client PUTs its source archive to (15 minutes, this deployment, this object,
 * one upload), and the object path to send back as source_revision_config.source_tarball_path.
 */
export async function createUploadUrl(
  db: Db,
  actor: Actor,
  deploymentId: string,
  origin: string,
): Promise<UploadUrl> {
  requireRole(actor, "editor");
  const deployment = await findDeployment(db, actor, deploymentId);
  if (deployment.status === "AWAITING_DELETE")
    throw conflict(`Deployment ID ${deploymentId} is being deleted.`);
  const store = uploadStore();
  // Archives no build consumed, and the rows of their URLs, go a day after they were made.
  const before = new Date(Date.now() - UPLOAD_RETENTION_MS);
  await store.sweep(before);
  await db.upload.deleteMany({ where: { createdAt: { lt: before } } });
  const uploadId = randomUUID();
  const objectPath = uploadPathOf(deployment.id, uploadId);
  const expiresAt = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
  await db.upload.create({ data: { id: uploadId, deploymentId: deployment.id } });
  await recordAudit(db, actor, {
    action: "deployment.upload_url",
    targetType: "deployment",
    targetId: deployment.id,
    data: { object_path: objectPath },
  });
  return {
    upload_url: await store.uploadUrl(objectPath, expiresAt, origin),
    object_path: objectPath,
  };
}

/** The smaller of our limit and the client's X-Goog-Content-Length-Range maximum. */
function limitOf(range: string | null): number {
  const max = range ? /^\s*\d+\s*,\s*(\d+)\s*$/.exec(range)?.[1] : undefined;
  return max ? Math.min(Number(max), MAX_UPLOAD_BYTES) : MAX_UPLOAD_BYTES;
}

const GZIP_TYPES = ["application/gzip", "application/x-gzip", "application/x-tar+gzip"];

const usedAlready = () => conflict("This upload URL has been used already.");
const emptyUpload = () => badRequest("The upload is empty: PUT the gzipped tar as the body.");

/** The body from its first byte on, or null when it holds none (chunked and ending empty too). */
async function nonEmpty(body: WebReadableStream<Uint8Array> | null): Promise<Readable | null> {
  if (!body) return null;
  const reader = body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.length === 0) first = await reader.read();
  if (first.done) return null;
  const head = first.value;
  return Readable.fromWeb(
    new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(head),
      pull: async (controller) => {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    }),
  );
}

/**
 * The signed PUT: checks the signature and expiry (403), the type (415), the size (413, also
 * while streaming: nothing is kept), that the URL was not used already (409) and that the body
 * is not empty (400). Only a stored archive uses the URL up; a failed PUT leaves it usable.
 */
export async function acceptUpload(
  db: Db,
  input: {
    deploymentId: string;
    uploadId: string;
    expires: string | null;
    signature: string | null;
    headers: Headers;
    body: WebReadableStream<Uint8Array> | null;
  },
): Promise<void> {
  const objectPath = uploadPathOf(input.deploymentId, input.uploadId);
  const check = checkUploadSignature(objectPath, input.expires, input.signature);
  if (check === "invalid") throw forbidden("The upload URL's signature is not valid.");
  if (check === "expired") throw forbidden("The upload URL has expired: request a new one.");

  const type = (input.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!GZIP_TYPES.includes(type))
    throw new AppError(
      "unsupported_media_type",
      "Upload a gzipped tar (Content-Type: application/gzip).",
    );
  const max = limitOf(input.headers.get("x-goog-content-length-range"));
  if (Number(input.headers.get("content-length") ?? 0) > max) throw tooLarge(max);

  const deployment = await db.deployment.findUnique({
    where: { id: input.deploymentId },
    select: { status: true },
  });
  if (!deployment || deployment.status === "AWAITING_DELETE")
    throw notFound(`Deployment ID ${input.deploymentId} not found.`);
  const where = { id: input.uploadId, deploymentId: input.deploymentId };
  const upload = await db.upload.findFirst({ where, select: { state: true } });
  // Signed, unexpired, yet no row: a URL issued before uploads had rows.
  if (!upload) throw forbidden("The upload URL has expired: request a new one.");
  if (upload.state !== "ISSUED") throw usedAlready();

  const body = await nonEmpty(input.body);
  if (!body) throw emptyUpload();
  const claimed = await db.upload.updateMany({
    where: { ...where, state: "ISSUED" },
    data: { state: "UPLOADING" },
  });
  if (claimed.count === 0) {
    body.destroy();
    throw usedAlready();
  }
  try {
    await uploadStore().put(objectPath, body, max);
  } catch (error) {
    await db.upload.updateMany({
      where: { ...where, state: "UPLOADING" },
      data: { state: "ISSUED" },
    });
    if (error instanceof UploadTooLarge) throw tooLarge(max);
    throw error;
  }
  await db.upload.updateMany({
    where: { ...where, state: "UPLOADING" },
    data: { state: "STORED" },
  });
}

const tooLarge = (max: number) =>
  new AppError("payload_too_large", `The upload is larger than ${max} bytes.`);

/**
 * Claims the upload a revision builds, before its build reads it: null when the revision may
 * build it (first claim, or a retried step of the same revision), else why not, as its
 * status_message. An upload is built by one revision only: new bytes need a new upload URL.
 */
export async function claimUploadForBuild(
  db: DbClient,
  revision: { id: string; deploymentId: string },
  objectPath: string | null,
): Promise<string | null> {
  const [, deploymentId, uploadId] = (objectPath && UPLOAD_PATH.exec(objectPath)) || [];
  if (!objectPath || deploymentId !== revision.deploymentId || !uuid.safeParse(uploadId).success)
    return `source_tarball_path ${objectPath ?? "(none)"} is not an upload of this deployment: request an upload URL and upload the source first.`;
  const store = uploadStore();
  // Hangar sees no PUT to a presigned S3 URL: there an issued upload is built if its object is there.
  const ready: UploadState[] =
    store.kind === "local" ? ["STORED"] : (await store.exists(objectPath)) ? ["ISSUED"] : [];
  const where = { id: uploadId!, deploymentId };
  const claimed = await db.upload.updateMany({
    where: {
      ...where,
      OR: [{ state: { in: ready } }, { state: "BUILT", revisionId: revision.id }],
    },
    data: { state: "BUILT", revisionId: revision.id },
  });
  if (claimed.count > 0) return null;
  const upload = await db.upload.findFirst({
    where,
    select: { state: true, revision: { select: { number: true } } },
  });
  if (upload?.state === "BUILT")
    return `Upload ${objectPath} was already built${upload.revision ? ` by revision ${upload.revision.number}` : ""}: request a new upload URL and upload the source again.`;
  if (upload)
    return `Upload ${objectPath} not found: nothing has been uploaded to its URL yet (PUT the archive first).`;
  return `Upload ${objectPath} not found (expired): request a new upload URL and upload the source again.`;
}
