import { env } from "@/env";
import { describeError, log } from "@/server/log";
import { clientAddress } from "./client-address";
import { rateLimitHeaders } from "./headers";
import { sha256Hex } from "@/server/crypto";
import { listenerTokenOf } from "@/server/auth/listener-tokens";
import { noKeysVerifier, postgresVerifiers, type ApiKeyVerifier } from "./key-verifier";
import { identify, matchRequest } from "./match";
import { MemoryStore } from "./memory-store";
import { RedisStore } from "./redis-store";
import { limitFor, type Limit, type Region } from "./rules";
import { sessionUserId } from "./session";
import type { RateLimitStore } from "./store";

export type RateLimitOutcome =
  | { kind: "pass"; headers: Record<string, string> }
  | { kind: "limited"; headers: Record<string, string>; message: string }
  | { kind: "unavailable" };

export interface LimiterConfig {
  region: Region;
  trustedProxyHops: number;
  failClosed: boolean;
  authSecret?: string;
}

const FAILURE_LOG_INTERVAL_MS = 30_000;

/**
 * Logs the first failure of every outage at once, further failures of the same outage at most
 * once per interval (with how many it skipped), and each recovery once.
 */
export class FailureReporter {
  private lastLogged = 0;
  private skipped = 0;
  private failing = false;

  constructor(private readonly intervalMs = FAILURE_LOG_INTERVAL_MS) {}

  failed(error: unknown, failClosed: boolean): void {
    const newOutage = !this.failing;
    this.failing = true;
    const now = Date.now();
    if (!newOutage && now - this.lastLogged < this.intervalMs) {
      this.skipped++;
      return;
    }
    log.warn("rate limiter store unavailable", {
      ...describeError(error),
      requests: failClosed ? "refused (503)" : "admitted unlimited",
      failures_since_last_log: this.skipped,
    });
    this.lastLogged = now;
    this.skipped = 0;
  }

  succeeded(): void {
    if (!this.failing) return;
    this.failing = false;
    log.info("rate limiter store recovered");
  }
}

export class Limiter {
  private readonly reporter = new FailureReporter();

  constructor(
    private readonly store: RateLimitStore,
    private readonly config: LimiterConfig,
    private readonly keys: ApiKeyVerifier = noKeysVerifier,
    private readonly listeners: ApiKeyVerifier = noKeysVerifier,
  ) {}

  /** Counts one hit against `key` outside the table (failed sign-ins per account). */
  async hitKey(key: string, limit: Limit): Promise<void> {
    try {
      await this.store.hit(key, limit);
    } catch (error) {
      this.reportStoreError(error);
    }
  }

  /** Whether `key` has used up `limit` (without counting); a failing store follows fail-open/closed. */
  async spent(key: string, limit: Limit): Promise<boolean> {
    try {
      return (await this.store.count(key, limit)) >= limit.count;
    } catch (error) {
      this.reportStoreError(error);
      return this.config.failClosed;
    }
  }

  /** For the store's own connection errors, which share the once-per-interval log. */
  reportStoreError = (error: unknown) => this.reporter.failed(error, this.config.failClosed);

  /** `calls`: how many operations the request carries (a tRPC batch); each one counts. */
  async check(
    method: string,
    path: string,
    headers: Headers,
    calls = 1,
  ): Promise<RateLimitOutcome> {
    const address = clientAddress(headers, this.config.trustedProxyHops);
    const apiKey = headers.get("x-api-key");
    const keyIsLive = apiKey ? await this.isLive(this.keys, apiKey) : false;
    const sent = apiKey ? null : listenerTokenOf(headers.get("authorization"));
    const listenerToken = sent && (await this.isLive(this.listeners, sent)) ? sent : null;
    const sessionUser =
      apiKey || listenerToken ? null : await sessionUserId(headers, this.config.authSecret);
    const caller = identify(headers, address, sessionUser, keyIsLive, listenerToken);
    const { rule, key } = matchRequest(method, path, caller);
    const limit = limitFor(rule, this.config.region);
    let result;
    try {
      result = await this.store.hit(key, limit);
      for (let i = 1; i < calls && result.allowed; i++) result = await this.store.hit(key, limit);
      this.reporter.succeeded();
    } catch (error) {
      this.reportStoreError(error);
      return this.config.failClosed ? { kind: "unavailable" } : { kind: "pass", headers: {} };
    }
    const limitHeaders = rateLimitHeaders(rule.id, limit, result);
    if (result.allowed) return { kind: "pass", headers: limitHeaders };
    const retryAfter = limitHeaders["Retry-After"];
    return {
      kind: "limited",
      headers: limitHeaders,
      message: `Rate limit exceeded: ${limit.count} requests per ${limit.seconds} seconds (${rule.category}). Retry after ${retryAfter} seconds.`,
    };
  }

  /** A lookup that fails (database down) counts the request by address. */
  private async isLive(verifier: ApiKeyVerifier, credential: string): Promise<boolean> {
    if (credential.length > 512) return false;
    return verifier.isLive(sha256Hex(credential)).catch(() => false);
  }
}

/**
 * One limiter per process, on `globalThis`: the production build can load this module once per
 * bundle (the proxy's, each route's), and an in-memory store per copy would split the counts
 * (an account's sign-in failures counted apart by each door that signs in).
 */
const globalForLimiter = globalThis as unknown as { hangarLimiter?: Limiter | null };

/** The process's limiter from the environment: Redis when REDIS_URL is set, else memory. */
export function getLimiter(): Limiter | null {
  if (globalForLimiter.hangarLimiter === undefined) globalForLimiter.hangarLimiter = newLimiter();
  return globalForLimiter.hangarLimiter;
}

function newLimiter(): Limiter | null {
  if (!env.HANGAR_RATELIMIT_ENABLED) return null;
  const config: LimiterConfig = {
    region: env.HANGAR_REGION,
    trustedProxyHops: env.HANGAR_TRUSTED_PROXY_HOPS,
    failClosed: env.HANGAR_RATELIMIT_FAIL_CLOSED,
    authSecret: env.AUTH_SECRET,
  };
  const { keys, listeners } = env.DATABASE_URL
    ? postgresVerifiers(env.DATABASE_URL)
    : { keys: noKeysVerifier, listeners: noKeysVerifier };
  if (!env.REDIS_URL) return new Limiter(new MemoryStore(), config, keys, listeners);
  let limiter: Limiter | undefined;
  const store = new RedisStore({
    url: env.REDIS_URL,
    prefix: env.HANGAR_RATELIMIT_PREFIX,
    commandTimeoutMs: env.HANGAR_RATELIMIT_REDIS_TIMEOUT_MS,
    onError: (error) => limiter?.reportStoreError(error),
  });
  return (limiter = new Limiter(store, config, keys, listeners));
}
