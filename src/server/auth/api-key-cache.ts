import pg from "pg";
import type { ApiKeyKind, OrgRole, Role } from "@/generated/prisma/enums";
import type { DbClient } from "@/server/db";
import { env } from "@/env";
import { log } from "@/server/log";

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

interface Entry {
  record: KeyRecord;
  until: number;
}

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every notification and on every (re)connect: a lookup that raced one is not kept. */
  private generation = 0;
  private listening = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly databaseUrl: string | undefined,
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
  ) {}

  /** Whether key changes are being heard (only then are keys cached). */
  get isListening(): boolean {
    return this.listening;
  }

  async find(db: DbClient, keyHash: string): Promise<KeyRecord | null> {
    if (this.listening) {
      const hit = this.entries.get(keyHash);
      if (hit && hit.until > Date.now()) return hit.record;
      this.entries.delete(keyHash);
    } else this.listen();
    const generation = this.generation;
    const record = await lookUp(db, keyHash);
    if (record && !record.revokedAt && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(keyHash, { record, until: Date.now() + this.ttlMs });
    }
    return record;
  }

  /** A key's hash drops that key; no hash, or an empty one (someone's roles changed), all. */
  private forget(keyHash?: string) {
    this.generation++;
    if (keyHash) this.entries.delete(keyHash);
    else this.entries.clear();
  }

  /** One LISTEN connection per process; on any failure, stop caching until it is back. */
  private listen() {
    if (!this.databaseUrl || this.connecting) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const down = () => {
      this.listening = false;
      this.forget();
      client.removeAllListeners();
      client.end().catch(() => undefined);
      // Try again on a later request, not in a loop.
      setTimeout(() => (this.connecting = null), 1_000).unref();
    };
    client.on("notification", (message) => this.forget(message.payload));
    client.on("error", down);
    client.on("end", down);
    this.connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        // The server must be able to exit with this connection open.
        (
          client as unknown as { connection: { stream: { unref(): void } } }
        ).connection.stream.unref();
        this.forget();
        this.listening = true;
      })
      .catch((error: unknown) => {
        log.warn("API key cache disabled: cannot listen for key changes", {
          error: String(error),
        });
        down();
      });
  }
}

const globalForCache = globalThis as unknown as { hangarApiKeyCache?: ApiKeyCache };

/** The stored key with this hash (revoked or not), or null; see the cache's revocation bound. */
export function findApiKeyByHash(db: DbClient, keyHash: string): Promise<KeyRecord | null> {
  globalForCache.hangarApiKeyCache ??= new ApiKeyCache(env.DATABASE_URL);
  return globalForCache.hangarApiKeyCache.find(db, keyHash);
}
