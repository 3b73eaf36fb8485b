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

type SlidingLogRedis = Redis & {
  slidingLog(key: string, count: number, windowMs: number): Promise<[number, number, number]>;
};

export interface RedisStoreOptions {
  url: string;
  /** Keys are `<prefix>:<rule id>:<identity>`. */
  prefix: string;
  /** A command not answered by then fails, so a slow Redis cannot slow every request. */
  commandTimeoutMs: number;
  onError: (error: unknown) => void;
}

export class RedisStore implements RateLimitStore {
  private readonly redis: SlidingLogRedis;

  constructor(private readonly options: RedisStoreOptions) {
    this.redis = new Redis(options.url, {
      // While disconnected, fail at once instead of queueing behind the reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    }) as SlidingLogRedis;
    this.redis.defineCommand("slidingLog", { numberOfKeys: 1, lua: SLIDING_LOG });
    this.redis.on("error", options.onError);
  }

  async hit(key: string, limit: Limit): Promise<HitResult> {
    const [allowed, remaining, resetMs] = await this.redis.slidingLog(
      `${this.options.prefix}:${key}`,
      limit.count,
      limit.seconds * 1000,
    );
    return { allowed: allowed === 1, remaining, resetMs };
  }

  /** Resolves once connected; until then hits fail (and the limiter fails open or closed). */
  async ready(): Promise<void> {
    if (this.redis.status !== "ready")
      await new Promise((resolve) => this.redis.once("ready", resolve));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
