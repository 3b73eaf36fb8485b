import type { Limit } from "./rules";
import type { HitResult, RateLimitStore } from "./store";

interface Entry {
  /** Admission times (ms), oldest first. */
  log: number[];
  expiresAt: number;
}

/**
 * The sliding log (see store.ts) in this process's memory, for a single instance without Redis.
 * Bounded: expired keys are swept at most once per `sweepEveryMs`, and past `maxKeys` the least
 * recently used keys go first, so many distinct clients cannot grow it without limit.
 */
export class MemoryStore implements RateLimitStore {
  private readonly entries = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private readonly options: { maxKeys?: number; sweepEveryMs?: number; now?: () => number } = {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, limit: Limit): Promise<HitResult> {
    const now = (this.options.now ?? Date.now)();
    const windowMs = limit.seconds * 1000;
    this.sweep(now);
    const entry = this.entries.get(key) ?? { log: [], expiresAt: 0 };
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const firstLive = entry.log.findIndex((t) => t > now - windowMs);
    entry.log.splice(0, firstLive === -1 ? entry.log.length : firstLive);
    const allowed = entry.log.length < limit.count;
    if (allowed) entry.log.push(now);
    entry.expiresAt = (entry.log.at(-1) ?? now) + windowMs;
    this.evictOverflow();
    return {
      allowed,
      remaining: Math.max(0, limit.count - entry.log.length),
      resetMs: (entry.log[0] ?? now) + windowMs - now,
    };
  }

  async count(key: string, limit: Limit): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    const log = this.entries.get(key)?.log ?? [];
    return log.filter((t) => t > now - limit.seconds * 1000).length;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < (this.options.sweepEveryMs ?? 10_000)) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  private evictOverflow(): void {
    const maxKeys = this.options.maxKeys ?? 100_000;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= maxKeys) return;
      this.entries.delete(key);
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
