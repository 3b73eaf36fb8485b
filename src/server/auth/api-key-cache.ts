import type { ApiKeyKind, OrgRole, Role } from "@/generated/prisma/enums";
import type { DbClient } from "@/server/db";
import { env } from "@/env";
import { NotifiedCache } from "./notified-cache";

/**
 * Verified API keys with their makers' current roles, cached so a busy key does not cost a
 * query per request. Revocation bound: a trigger on api_keys (migration 20261123115000)
 * notifies every change but the last-use time, and triggers on memberships and
 * organization_members (migration 20261128000000) every change of anyone's roles, from any
 * process or tool; each server drops that key (or all keys) at once; while a process's
 * notification connection is not up it caches nothing; and no entry is used after
 * API_KEY_CACHE_TTL_MS in any case. Unknown keys are never cached.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = "hangar_api_key_changed";

/** A stored key and, for a personal key, its maker's roles now (null: no longer a member). */
export interface KeyRecord {
  id: string;
  kind: ApiKeyKind;
  organizationId: string;
  workspaceId: string | null;
  role: Role;
  orgRole: OrgRole;
  createdById: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  maker: { role: Role; orgRole: OrgRole } | null;
}

/** One query: the key, its maker's membership in the key's workspace and organization role. */
async function lookUp(db: DbClient, keyHash: string): Promise<KeyRecord | null> {
  const rows = await db.$queryRaw<
    (Omit<KeyRecord, "maker"> & { makerRole: Role | null; makerOrgRole: OrgRole | null })[]
  >`
    SELECT k.id, k.kind, k.organization_id AS "organizationId", k.workspace_id AS "workspaceId",
           k.role, k.org_role AS "orgRole", k.created_by_id AS "createdById",
           k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt",
           m.role AS "makerRole", o.role AS "makerOrgRole"
    FROM api_keys k
    LEFT JOIN memberships m
      ON k.kind = 'personal' AND m.user_id = k.created_by_id AND m.workspace_id = k.workspace_id
    LEFT JOIN organization_members o
      ON k.kind = 'personal' AND o.user_id = k.created_by_id
     AND o.organization_id = k.organization_id
    WHERE k.key_hash = ${keyHash}`;
  const row = rows[0];
  if (!row) return null;
  const { makerRole, makerOrgRole, ...key } = row;
  return {
    ...key,
    maker: makerRole ? { role: makerRole, orgRole: makerOrgRole ?? "member" } : null,
  };
}

/** API keys by hash (NotifiedCache: the revocation bound above). */
export class ApiKeyCache extends NotifiedCache<KeyRecord> {
  constructor(databaseUrl: string | undefined, ttlMs = API_KEY_CACHE_TTL_MS) {
    super({
      databaseUrl,
      channel: CHANNEL,
      lookUp,
      usable: (record) => !record.revokedAt,
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
  }
}

const globalForCache = globalThis as unknown as { hangarApiKeyCache?: ApiKeyCache };

/** The stored key with this hash (revoked or not), or null; see the cache's revocation bound. */
export function findApiKeyByHash(db: DbClient, keyHash: string): Promise<KeyRecord | null> {
  globalForCache.hangarApiKeyCache ??= new ApiKeyCache(env.DATABASE_URL);
  return globalForCache.hangarApiKeyCache.find(db, keyHash);
}
