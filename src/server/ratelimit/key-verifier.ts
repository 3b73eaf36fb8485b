import pg from "pg";

/**
 * Whether an API key or listener token (by its SHA-256) is a live one, for choosing a rate-limit bucket only
 * (the route authenticates every request itself). Answers are cached for `ttlMs`: a revoked key
 * keeps its own bucket at most that long (README "Rate limits"); concurrent checks of one key
 * share one lookup, and both caches are bounded so made-up keys cannot grow memory.
 */
export interface ApiKeyVerifier {
  isLive(keyHash: string): Promise<boolean>;
}

export const KEY_CACHE_TTL_MS = 10_000;
const MAX_CACHED = 10_000;

export class CachedKeyVerifier implements ApiKeyVerifier {
  private readonly answers = new Map<string, { live: boolean; until: number }>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly lookup: (keyHash: string) => Promise<boolean>,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
  ) {}

  async isLive(keyHash: string): Promise<boolean> {
    const cached = this.answers.get(keyHash);
    if (cached && cached.until > Date.now()) return cached.live;
    const inFlight = this.pending.get(keyHash);
    if (inFlight) return inFlight;
    const check = this.lookup(keyHash)
      .then((live) => {
        if (this.answers.size >= MAX_CACHED) this.answers.delete(this.answers.keys().next().value!);
        this.answers.set(keyHash, { live, until: Date.now() + this.ttlMs });
        return live;
      })
      .finally(() => this.pending.delete(keyHash));
    this.pending.set(keyHash, check);
    return check;
  }
}

/**
 * Looks API keys (tracing ingest keys too) and listener tokens up in PostgreSQL with a small pool of its own (the proxy
 * does not load Prisma).
 */
export function postgresVerifiers(databaseUrl: string): {
  keys: ApiKeyVerifier;
  listeners: ApiKeyVerifier;
} {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, idleTimeoutMillis: 30_000 });
  pool.on("error", () => undefined);
  const exists = (sql: string) =>
    new CachedKeyVerifier(async (hash) => ((await pool.query(sql, [hash])).rowCount ?? 0) > 0);
  return {
    // A deployment's tracing ingest key (contract 15.7) counts as a key on the tracing routes.
    keys: exists(
      `SELECT 1 FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL
       UNION ALL SELECT 1 FROM tracing_ingest_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    ),
    listeners: exists("SELECT 1 FROM listeners WHERE token_hash = $1"),
  };
}

/** No database to ask (rate limits in tools and benches): every key counts by address. */
export const noKeysVerifier: ApiKeyVerifier = { isLive: async () => false };
