import { createHmac } from "node:crypto";
import type { DbClient } from "@/server/db";
import { derivedKey, sha256Hex } from "@/server/crypto";
import { env } from "@/env";
import { AppError } from "@/server/errors";
import type { Actor } from "./actor";
import { NotifiedCache } from "./notified-cache";

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

/** A stored ingest key with what its actor needs (one query). */
interface IngestKeyRecord {
  id: string;
  workspaceId: string;
  organizationId: string;
  deploymentId: string;
  projectId: string;
  projectName: string;
  revoked: boolean;
}

async function lookUp(db: DbClient, keyHash: string): Promise<IngestKeyRecord | null> {
  const rows = await db.$queryRaw<IngestKeyRecord[]>`
    SELECT k.id::text AS id, k.workspace_id::text AS "workspaceId",
           w.organization_id::text AS "organizationId", k.deployment_id::text AS "deploymentId",
           k.project_id::text AS "projectId", p.name AS "projectName",
           (k.revoked_at IS NOT NULL OR d.status = 'AWAITING_DELETE') AS revoked
      FROM tracing_ingest_keys k
      JOIN workspaces w ON w.id = k.workspace_id
      JOIN deployments d ON d.id = k.deployment_id
      JOIN tracing_projects p ON p.id = k.project_id
     WHERE k.key_hash = ${keyHash}`;
  return rows[0] ?? null;
}

/**
 * Ingest keys by hash, cached like API keys (contract 15.7): a trigger on tracing_ingest_keys
 * announces every change of a key (revocation, deletion) and one on tracing_projects a renamed
 * project (migration 20261205000000); no entry is used after INGEST_KEY_CACHE_TTL_MS.
 */
export const INGEST_KEY_CACHE_TTL_MS = 5_000;
export class IngestKeyCache extends NotifiedCache<IngestKeyRecord> {
  constructor(databaseUrl: string | undefined, ttlMs = INGEST_KEY_CACHE_TTL_MS) {
    super({
      databaseUrl,
      channel: "hangar_ingest_key_changed",
      lookUp,
      usable: (record) => !record.revoked,
      ttlMs,
    });
  }
}

const globalForCache = globalThis as unknown as { hangarIngestKeyCache?: IngestKeyCache };
const ingestKeyCache = () =>
  (globalForCache.hangarIngestKeyCache ??= new IngestKeyCache(env.DATABASE_URL));

/**
 * After this process has committed a revocation: its own next request must not wait for the
 * announcement (other processes drop the keys when it arrives, a moment after the commit).
 */
export const forgetIngestKeys = () => ingestKeyCache().forget();

/**
 * The actor of an ingest key: its deployment's workspace, the editor role (it writes), and its
 * project. Revoked (a later revision went live) or of a deployment being deleted: 401. Unknown:
 * null (an API key may look like one: the caller asks the API keys next).
 */
export async function actorFromIngestKey(db: DbClient, key: string): Promise<Actor | null> {
  const row = await ingestKeyCache().find(db, sha256Hex(key));
  if (!row) return null;
  if (row.revoked) throw new AppError("unauthorized", "Invalid API key");
  return {
    kind: "ingest_key",
    userId: null,
    apiKeyId: null,
    organizationId: row.organizationId,
    workspaceId: row.workspaceId,
    role: "editor",
    orgRole: "member",
    ingest: {
      keyId: row.id,
      deploymentId: row.deploymentId,
      projectId: row.projectId,
      projectName: row.projectName,
    },
  };
}
