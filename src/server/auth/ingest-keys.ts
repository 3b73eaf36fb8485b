import { createHmac } from "node:crypto";
import type { DbClient } from "@/server/db";
import { derivedKey, sha256Hex } from "@/server/crypto";
import { AppError } from "@/server/errors";
import type { Actor } from "./actor";

// Tracing ingest keys (contract 15.7): one per revision, injected into the deployment's pods.
// Only the tracing ingest routes know them; every other door looks an X-Api-Key up among the
// API keys, finds nothing and answers 401 as for any unknown key.

export const INGEST_KEY_PREFIX = "hgt_";

export const isIngestKey = (key: string | null): key is string =>
  key !== null && key.startsWith(INGEST_KEY_PREFIX);

/**
 * The revision's key, derived from the encryption key and the revision id: a retried deploy step
 * renders the same Secret, and only the key's SHA-256 is stored.
 */
export function ingestKeyOf(revisionId: string): { key: string; prefix: string; hash: string } {
  const key =
    INGEST_KEY_PREFIX +
    createHmac("sha256", derivedKey("tracing.ingest-key")).update(revisionId).digest("base64url");
  return { key, prefix: key.slice(0, 12), hash: sha256Hex(key) };
}

/**
 * The actor of an ingest key: its deployment's workspace, the editor role (it writes), and its
 * project. Revoked (a later revision went live) or of a deployment being deleted: 401. Unknown:
 * null (an API key may look like one: the caller asks the API keys next).
 */
export async function actorFromIngestKey(db: DbClient, key: string): Promise<Actor | null> {
  const row = await db.tracingIngestKey.findUnique({
    where: { keyHash: sha256Hex(key) },
    include: {
      project: { select: { name: true } },
      deployment: { select: { status: true } },
      workspace: { select: { organizationId: true } },
    },
  });
  if (!row) return null;
  if (row.revokedAt || row.deployment.status === "AWAITING_DELETE")
    throw new AppError("unauthorized", "Invalid API key");
  return {
    kind: "ingest_key",
    userId: null,
    apiKeyId: null,
    organizationId: row.workspace.organizationId,
    workspaceId: row.workspaceId,
    role: "editor",
    orgRole: "member",
    ingest: {
      keyId: row.id,
      deploymentId: row.deploymentId,
      projectId: row.projectId,
      projectName: row.project.name,
    },
  };
}
