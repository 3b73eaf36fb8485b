import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { UploadUrl } from "@/schemas/uploads";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError, conflict, forbidden, notFound } from "@/server/errors";
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_RETENTION_MS,
  UPLOAD_URL_TTL_SECONDS,
  UploadTooLarge,
  uploadPathOf,
  uploadStore,
} from "@/server/storage";
import { checkUploadSignature } from "@/server/storage/signed-url";
import { recordAudit } from "./audit/record";
import { findDeployment } from "./deployments/find";

/**
 * A URL the deploy client PUTs its source archive to (15 minutes, this deployment, this object),
 * and the object path to send back as source_revision_config.source_tarball_path.
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
  // Archives no build consumed are deleted a day after they were uploaded.
  await store.sweep(new Date(Date.now() - UPLOAD_RETENTION_MS));
  const objectPath = uploadPathOf(deployment.id, randomUUID());
  const expiresAt = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
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

/**
 * The signed PUT: checks the signature and expiry (403), the type (415), the size (413, also
 * while streaming: nothing is kept) and that the URL was not used already (409).
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
  const store = uploadStore();
  if (await store.exists(objectPath)) throw conflict("This upload URL has been used already.");
  if (!input.body) throw new AppError("bad_request", "The upload is empty.");
  try {
    await store.put(objectPath, Readable.fromWeb(input.body), max);
  } catch (error) {
    if (error instanceof UploadTooLarge) throw tooLarge(max);
    throw error;
  }
}

const tooLarge = (max: number) =>
  new AppError("payload_too_large", `The upload is larger than ${max} bytes.`);
