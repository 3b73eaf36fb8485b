import { lookup } from "node:dns/promises";
import { canonicalAddress, refusedRange } from "./address-policy";
import type { Allowlist } from "./allowlist";
import { OutboundError } from "./errors";

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: Lookup = (hostname) => lookup(hostname, { all: true });

/** The addresses `hostname` names (itself, for an address), IPv4 first, each canonical. */
export async function candidateAddresses(
  hostname: string,
  resolve: Lookup = systemLookup,
): Promise<{ literal: boolean; candidates: string[] }> {
  const literal = canonicalAddress(hostname);
  if (literal) return { literal: true, candidates: [literal] };
  const found = await resolve(hostname).catch(() => {
    throw new OutboundError("unreachable", `${hostname} could not be resolved`);
  });
  return {
    literal: false,
    candidates: found
      .sort((a, b) => a.family - b.family)
      .map((a) => canonicalAddress(a.address) ?? a.address),
  };
}

/**
 * Resolves `hostname` once and returns the address to connect to: the first (IPv4 first) that
 * is public or allow-listed. The caller connects to exactly this address (no second lookup).
 */
export async function checkedAddress(
  hostname: string,
  port: number,
  allowlist: Allowlist,
  resolve: Lookup = systemLookup,
): Promise<string> {
  const { literal, candidates } = await candidateAddresses(hostname, resolve);
  const allowed = candidates.find(
    (address) => refusedRange(address) === null || allowlist.allows(hostname, port, address),
  );
  if (allowed) return allowed;
  const range = candidates.length ? refusedRange(candidates[0]!) : "reserved";
  const what = literal ? `${hostname} is` : `${hostname} resolves to`;
  throw new OutboundError(
    "refused",
    `${what} a ${range} address, which Hangar's outbound address policy refuses (allow it with HANGAR_EGRESS_ALLOWLIST)`,
  );
}
