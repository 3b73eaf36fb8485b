/*
 * Next 16's proxy sees headers, never the socket. Next fills X-Forwarded-For with the socket
 * address only when the client sent none, so a client-sent value cannot be told from a real one.
 * So the server stamps the socket's address into this header on every request (request-hook.ts),
 * overwriting whatever a client sent under it.
 */
export const PEER_HEADER = "x-hangar-peer-address";

export function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

/**
 * The client's address. With no trusted proxies (`hops` 0) it is the socket peer. Behind
 * `hops` trusted proxies, each appending what it saw to X-Forwarded-For, it is the entry that
 * many places from the right; entries further left were written by the client and are ignored.
 * "unknown" (one shared counter) when the hook is missing, so forging never earns a budget.
 */
export function clientAddress(headers: Headers, hops: number): string {
  const peer = headers.get(PEER_HEADER) || "unknown";
  if (hops === 0) return peer;
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const forwarded = chain[chain.length - hops];
  return forwarded ? normalizeAddress(forwarded) : peer;
}
