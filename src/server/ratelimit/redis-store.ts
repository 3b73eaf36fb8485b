import { Redis } from "ioredis";
import type { Limit } from "./rules";
import type { HitResult, RateLimitStore } from "./store";

// The sliding log (see store.ts) as one Lua script, so check-and-add is atomic across every
// instance. Redis's own clock times it, so instances with skewed clocks still agree.
// Members are "<seconds>.<µs>:<count>": unique even when two requests share a microsecond.
const SLIDING_LOG = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, t[1] .. '.' .. t[2] .. ':' .. count)
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
  count = count + 1
  allowed = 1
end
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
return {allowed, limit - count, math.ceil((oldest + window - now) / 1000)}
`;

// Scores are microseconds by Redis's clock; numbers (not concatenated text) keep full precision.
const WINDOW_COUNT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[1]) * 1000 + 1, '+inf')
`;

/** Bounds the wait for the first connection (a Redis that accepts but never answers). */
const FIRST_CONNECTION_GRACE_MS = 1000;

/**
 * Rejects after `ms`, but only once pending I/O has been read: the expiry waits one
 * setImmediate, which runs after the poll phase, so a busy event loop that merely saw the
 * reply late does not count as a slow Redis (ioredis's commandTimeout would).
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => setImmediate(() => reject(new Error(`Redis did not answer within ${ms} ms`))),
      ms,
    );
  });
  promise.catch(() => {}); // a late failure after expiry is already reported
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

type SlidingLogRedis = Redis & {
  slidingLog(key: string, count: number, windowMs: number): Promise<[number, number, number]>;
  windowCount(key: string, windowMs: number): Promise<number>;
};

export interface RedisStoreOptions {
  url: string;
  /** Keys are `<prefix>:<rule id>:<identity>`. */
  prefix: string;
  /** A hit not answered by then fails, so a slow Redis cannot slow every request. */
  commandTimeoutMs: number;
  onError: (error: unknown) => void;
}

export class RedisStore implements RateLimitStore {
  private readonly redis: SlidingLogRedis;
  /** Pending until the first connection; null after. */
  private connecting: Promise<void> | null;

  constructor(private readonly options: RedisStoreOptions) {
    this.redis = new Redis(options.url, {
      // While disconnected, fail at once instead of queueing behind the reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    }) as SlidingLogRedis;
    this.redis.defineCommand("slidingLog", { numberOfKeys: 1, lua: SLIDING_LOG });
    this.redis.defineCommand("windowCount", { numberOfKeys: 1, lua: WINDOW_COUNT });
    this.redis.on("error", options.onError);
    this.connecting = new Promise<void>((resolve) => {
      const settled = () => {
        this.connecting = null;
        resolve();
      };
      for (const event of ["ready", "error", "close"]) this.redis.once(event, settled);
      setTimeout(settled, FIRST_CONNECTION_GRACE_MS).unref();
    });
  }

  async hit(key: string, limit: Limit): Promise<HitResult> {
    // Requests that arrive while the first connection is being made wait for it, not fail.
    if (this.connecting) await this.connecting;
    const reply = this.redis.slidingLog(
      `${this.options.prefix}:${key}`,
      limit.count,
      limit.seconds * 1000,
    );
    const [allowed, remaining, resetMs] = await withTimeout(reply, this.options.commandTimeoutMs);
    return { allowed: allowed === 1, remaining, resetMs };
  }

  async count(key: string, limit: Limit): Promise<number> {
    if (this.connecting) await this.connecting;
    const reply = this.redis.windowCount(`${this.options.prefix}:${key}`, limit.seconds * 1000);
    return withTimeout(reply, this.options.commandTimeoutMs);
  }

  /** Resolves once the first connection attempt has settled. */
  async ready(): Promise<void> {
    await this.connecting;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
