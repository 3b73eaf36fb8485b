import type { Limit } from "./rules";

/*
 * The algorithm, in both stores: a sliding log. A request is admitted only when fewer than
 * `count` admitted requests lie in the `seconds` before it, and only admitted requests are
 * logged. Of the usual choices it is the only one that never admits more than `count` in ANY
 * window of that length: a fixed window admits 2x across a boundary, GCRA lets a full burst
 * be followed at once by the steady rate, and the two-window weighted counter is an estimate.
 * Its price is memory proportional to `count` per busy key (at most 10,000 entries here).
 */

export interface HitResult {
  allowed: boolean;
  /** Requests still admissible in the window after this one. */
  remaining: number;
  /** Milliseconds until the oldest logged request leaves the window (one more slot frees). */
  resetMs: number;
}

/** Counts a request against `key` and says whether it is admitted; atomic per key. */
export interface RateLimitStore {
  hit(key: string, limit: Limit): Promise<HitResult>;
  /** How many hits `key` has in the window now, counting nothing new. */
  count(key: string, limit: Limit): Promise<number>;
  close(): Promise<void>;
}
