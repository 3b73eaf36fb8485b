import type { Readable } from "node:stream";

// Where uploaded source archives live between the deploy client's PUT and the build. They hold
// the project's .env, so every store keeps them unreadable to anyone but Hangar.

/** The largest archive the deploy client sends (its X-Goog-Content-Length-Range). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** How long an upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** An upload no build has consumed by then is deleted. */
export const UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The upload is larger than ${limit} bytes`);
  }
}

export interface UploadStore {
  readonly kind: "local" | "s3";
  /** Where the client PUTs the object until `expiresAt` (unix seconds). */
  uploadUrl(objectPath: string, expiresAt: number, origin: string): Promise<string>;
  /** Stores a body, refusing it (UploadTooLarge, nothing kept) once it passes `maxBytes`. */
  put(objectPath: string, body: Readable, maxBytes: number): Promise<number>;
  exists(objectPath: string): Promise<boolean>;
  /** The archive's bytes, as uploaded. */
  open(objectPath: string): Promise<Readable>;
  remove(objectPath: string): Promise<void>;
  /** Deletes uploads older than `before`; returns how many. */
  sweep(before: Date): Promise<number>;
  /** Deletes the tracing attachments of the days before `day` (YYYYMMDD); returns how many. */
  sweepTracing(day: string): Promise<number>;
}

/** Object paths are `deployments/<deployment id>/uploads/<upload id>.tar.gz`. */
export const UPLOAD_PATH = /^deployments\/([0-9a-f-]{36})\/uploads\/([0-9a-f-]{36})\.tar\.gz$/;

export const uploadPathOf = (deploymentId: string, uploadId: string) =>
  `deployments/${deploymentId}/uploads/${uploadId}.tar.gz`;

/** A Kubernetes build's context (the prepared folder, packed): `build-contexts/<id>.tar.gz`. */
export const BUILD_CONTEXT_PATH = /^build-contexts\/([0-9a-f-]{36})\.tar\.gz$/;

export const buildContextPathOf = (contextId: string) => `build-contexts/${contextId}.tar.gz`;

/**
 * A tracing run's attachment: `tracing/<day YYYYMMDD>/<workspace id>/<run id>/<SHA-256 of its
 * name>`. Ids and a hash only: nothing a caller writes reaches the path. The day is the run's
 * partition day, so retention deletes a day's attachments with its runs.
 */
export const TRACING_OBJECT_PATH =
  /^tracing\/(\d{8})\/([0-9a-f-]{36})\/([0-9a-f-]{36})\/([0-9a-f]{64})$/;

/** The deployment an object path belongs to, or null when it is not an upload path. */
export function uploadOwner(objectPath: string): string | null {
  return UPLOAD_PATH.exec(objectPath)?.[1] ?? null;
}
