import pg from "pg";
import type { ApiKey } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";
import { env } from "@/env";
import { log } from "@/server/log";

/**
 * Verified API keys, cached so a busy key does not cost a query per request. Revocation bound:
 * a trigger on api_keys (migration 20261123115000) notifies every change but the last-use
 * time, from any process or tool, and each server drops that key at once; while a process's
 * notification connection is not up it caches nothing; and no entry is used after
 * API_KEY_CACHE_TTL_MS in any case. Unknown keys are never cached.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = "hangar_api_key_changed";

interface Entry {
  record: ApiKey;
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

  async find(db: DbClient, keyHash: string): Promise<ApiKey | null> {
    if (this.listening) {
      const hit = this.entries.get(keyHash);
      if (hit && hit.until > Date.now()) return hit.record;
      this.entries.delete(keyHash);
    } else this.listen();
    const generation = this.generation;
    const record = await db.apiKey.findUnique({ where: { keyHash } });
    if (record && !record.revokedAt && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(keyHash, { record, until: Date.now() + this.ttlMs });
    }
    return record;
  }

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
export function findApiKeyByHash(db: DbClient, keyHash: string): Promise<ApiKey | null> {
  globalForCache.hangarApiKeyCache ??= new ApiKeyCache(env.DATABASE_URL);
  return globalForCache.hangarApiKeyCache.find(db, keyHash);
}
