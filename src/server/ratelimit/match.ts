import { sha256Hex } from "@/server/crypto";
import { rateLimitRules, type Identity, type RateLimitRule, type When } from "./rules";

/*
 * How a request finds its row (README "Rate limits" says the same):
 * 1. The caller: a verified `x-api-key` (a live key) makes an API-key call; else a live listener
 *    token (`Authorization: Bearer hgl_...`) makes a listener call keyed by its SHA-256; else a signed-in
 *    dashboard session makes a user call keyed by its user id together with the client address
 *    (the spec's "x-user-id + IP" pair, with the id verified); else the call is anonymous (keyed
 *    by the client address). An unknown, malformed or revoked key, and an `x-user-id` that is not
 *    the signed-in user's own id, name no bucket: such requests count by address.
 * 2. A row applies when one of its alternatives holds (its method, if given, equals the request's;
 *    its path pattern, if given, matches) and the request carries the row's identity (an address
 *    is always carried, so `IP` rows apply to every caller).
 * 3. Rows with a method or path beat the identity-only defaults; among them the first in table
 *    order wins. Then the default row of the caller's identity; then the catch-all by address.
 */

export type Caller =
  | { kind: "apiKey"; apiKey: string; address: string }
  | { kind: "session"; userId: string; address: string }
  | { kind: "listener"; listenerToken: string; address: string }
  | { kind: "anonymous"; address: string };

export interface RateLimitMatch {
  rule: RateLimitRule;
  /** The counter's key: the rule id plus the identity it counts (API keys only as a sha256). */
  key: string;
}

/**
 * `keyIsLive`: the request's x-api-key was verified; `listenerToken`: its bearer token is a live
 * listener's (see key-verifier.ts).
 */
export function identify(
  headers: Headers,
  address: string,
  sessionUserId: string | null,
  keyIsLive: boolean,
  listenerToken: string | null = null,
): Caller {
  const apiKey = headers.get("x-api-key");
  if (apiKey && keyIsLive) return { kind: "apiKey", apiKey, address };
  if (apiKey) return { kind: "anonymous", address };
  if (listenerToken) return { kind: "listener", listenerToken, address };
  if (sessionUserId) return { kind: "session", userId: sessionUserId, address };
  return { kind: "anonymous", address };
}

function callerIdentity(caller: Caller): Identity {
  if (caller.kind === "apiKey") return "apiKey";
  if (caller.kind === "listener") return "listener";
  return caller.kind === "anonymous" ? "ip" : "user";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function segmentsOf(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function segmentEquals(pattern: string, actual: string): boolean {
  return pattern === "{uuid}" ? UUID.test(actual) : pattern === actual;
}

function sequenceAt(path: string[], pattern: string[], start: number): boolean {
  return pattern.every((p, i) => {
    const actual = path[start + i];
    return actual !== undefined && segmentEquals(p, actual);
  });
}

/** Percent-decoded, without empty segments, so `/rep%6Fs` or `//repos` cannot dodge a row. */
export function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // malformed escapes stay as sent; the router answers those
  }
  return "/" + segmentsOf(decoded).join("/");
}

/** `path` is normalized (see normalizePath). */
export function pathMatches(pattern: string, path: string): boolean {
  if (pattern.startsWith("contains ")) return path.includes(pattern.slice("contains ".length));
  const actual = segmentsOf(path);
  if (pattern.startsWith("*/")) {
    const wanted = segmentsOf(pattern.slice(1));
    return sequenceAt(actual, wanted, actual.length - wanted.length);
  }
  const wanted = segmentsOf(pattern);
  for (let start = 0; start + wanted.length <= actual.length; start++) {
    if (sequenceAt(actual, wanted, start)) return true;
  }
  return false;
}

function alternativeHolds(when: When, method: string, path: string): boolean {
  return (!when.method || when.method === method) && (!when.path || pathMatches(when.path, path));
}

function keyFor(rule: RateLimitRule, caller: Caller): string {
  if (rule.identity === "ip") return `${rule.id}:ip:${caller.address}`;
  if (caller.kind === "apiKey") return `${rule.id}:key:${sha256Hex(caller.apiKey)}`;
  if (caller.kind === "listener") return `${rule.id}:listener:${sha256Hex(caller.listenerToken)}`;
  if (caller.kind === "session") return `${rule.id}:user:${caller.userId}:${caller.address}`;
  return `${rule.id}:ip:${caller.address}`;
}

const pathRules = rateLimitRules.filter((r) => r.when !== "default");
const defaultRules = rateLimitRules.filter((r) => r.when === "default");

/** The rule that limits this request, and the counter it draws from. */
export function matchRequest(method: string, path: string, caller: Caller): RateLimitMatch {
  const identity = callerIdentity(caller);
  const upper = method.toUpperCase();
  const normalized = normalizePath(path);
  const carries = (rule: RateLimitRule) => rule.identity === "ip" || rule.identity === identity;
  const rule =
    pathRules.find(
      (r) =>
        carries(r) &&
        (r.when as readonly When[]).some((w) => alternativeHolds(w, upper, normalized)),
    ) ??
    defaultRules.find((r) => r.identity === identity) ??
    defaultRules.find((r) => r.identity === "ip")!;
  return { rule, key: keyFor(rule, caller) };
}
