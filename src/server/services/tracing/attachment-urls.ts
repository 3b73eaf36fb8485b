import { env } from "@/env";
import {
  checkSignedExpiry,
  signFields,
  type UploadSignatureCheck,
} from "@/server/storage/signed-url";
import { tracingEndpoint } from "./endpoint";

// A run's attachments as a read lists them (the SDK's `s3_urls`). Each presigned_url authorises
// itself like an upload URL (signed-url.ts), for the SDKs download it without their API key: an
// HMAC over the workspace, the run, the name and the expiry, with a key of its own.

/** How long the attachment URLs of one read work. */
export const ATTACHMENT_URL_TTL_SECONDS = 60 * 60;

/** What the run's row keeps per attachment name. */
export interface StoredAttachment {
  object: string;
  mime_type: string;
  size: number;
}

/** A row's `attachments` column as a map (anything else is none). */
export const storedAttachments = (value: unknown): Record<string, StoredAttachment> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, StoredAttachment>)
    : {};

export function signAttachment(
  workspaceId: string,
  runId: string,
  name: string,
  expiresAt: number,
): string {
  return signFields("tracing-attachments.sign", ["GET", workspaceId, runId, name, expiresAt]);
}

export function checkAttachmentSignature(
  input: { workspaceId: string; runId: string; name: string },
  expires: string | null,
  signature: string | null,
  now = Date.now(),
): UploadSignatureCheck {
  const { workspaceId, runId, name } = input;
  return checkSignedExpiry(
    (at) => signAttachment(workspaceId, runId, name, at),
    expires,
    signature,
    now,
  );
}

/** Where one read's attachment URLs point and until when (unix seconds): one per answer. */
export interface AttachmentLinks {
  base: string;
  workspaceId: string;
  expiresAt: number;
}

/**
 * The tracing base Hangar advertises (tracingEndpoint), else the request's own origin's. Only
 * a server-rendered page has neither; its URLs are then relative to Hangar.
 */
export function attachmentLinks(
  workspaceId: string,
  origin: string | undefined,
  now = Date.now(),
  config: Parameters<typeof tracingEndpoint>[0] = env,
): AttachmentLinks {
  return {
    base: tracingEndpoint(config) ?? `${origin?.replace(/\/+$/, "") ?? ""}/api/v1`,
    workspaceId,
    expiresAt: Math.floor(now / 1000) + ATTACHMENT_URL_TTL_SECONDS,
  };
}

/**
 * `{base}/public/download?run_id=&name=&workspace=&expires=&signature=`: GET, no key. Under
 * `/public/download` the spec's Public download row (5000 a minute per address) limits it, not
 * the catch-all: the Python SDK's list_runs downloads every attachment it lists.
 */
export function attachmentUrl(links: AttachmentLinks, runId: string, name: string): string {
  const query = new URLSearchParams({
    run_id: runId,
    name,
    workspace: links.workspaceId,
    expires: String(links.expiresAt),
    signature: signAttachment(links.workspaceId, runId, name, links.expiresAt),
  });
  return `${links.base}/public/download?${query}`;
}

/**
 * `attachment.<name>` → where to download it, its type and size. The Python SDK builds its
 * Run's own `attachments` from this field (downloading each presigned_url without its key), and
 * fails on a run that also carries one.
 */
export function attachmentsView(runId: string, value: unknown, links: AttachmentLinks) {
  return Object.fromEntries(
    Object.entries(storedAttachments(value)).map(([name, stored]) => [
      `attachment.${name}`,
      {
        presigned_url: attachmentUrl(links, runId, name),
        s3_url: null,
        mime_type: stored.mime_type,
        size: stored.size,
      },
    ]),
  );
}
