import type { IncomingHttpHeaders } from "node:http";

// What a client says about how it reached us (scheme, host, port) counts only when trusted
// proxies wrote it: origins handed out (upload URLs, OAuth redirect URIs) and next-auth's own
// URLs are built from these headers.

const FORWARDED = ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"] as const;

/**
 * With no trusted proxies (`hops` 0) client-sent X-Forwarded-Proto/-Host/-Port and Forwarded are
 * dropped, so Next fills the first three from the socket and Host (it only sets absent ones).
 * Behind `hops` trusted proxies, each appending what it saw, each keeps the entry that many
 * places from the right (the outermost trusted proxy's; the leftmost when there are fewer).
 */
export function trustForwardedHeaders(headers: IncomingHttpHeaders, hops: number): void {
  if (hops <= 0) {
    for (const name of [...FORWARDED, "forwarded"]) delete headers[name];
    return;
  }
  for (const name of FORWARDED) {
    const value = headers[name];
    if (value === undefined) continue;
    const chain = [value]
      .flat()
      .join(",")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const entry = chain[Math.max(0, chain.length - hops)];
    if (entry) headers[name] = entry;
    else delete headers[name];
  }
}
