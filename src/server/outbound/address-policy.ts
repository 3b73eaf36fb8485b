import ipaddr from "ipaddr.js";

// Which addresses Hangar may send requests to on a user's behalf (SSRF defence, issue 11).

/** Why an address is refused, in words a user can act on. */
export type RefusedRange =
  | "loopback"
  | "private"
  | "unique-local"
  | "link-local"
  | "cloud metadata"
  | "CGNAT"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "tunnel"
  | "reserved";

const RANGE_NAMES: Record<string, RefusedRange> = {
  loopback: "loopback",
  private: "private",
  uniqueLocal: "unique-local",
  linkLocal: "link-local",
  carrierGradeNat: "CGNAT",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  "6to4": "tunnel",
  teredo: "tunnel",
};

/** Metadata services reachable at addresses that are otherwise public or named elsewhere. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "168.63.129.16",
  "fd00:ec2::254",
  "100.100.100.200",
]);

/** The address in canonical form, with IPv4 carried inside IPv6 (mapped, NAT64) unwrapped. */
export function canonicalAddress(address: string): string | null {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    if (v6.range() === "rfc6052") {
      const bytes = v6.toByteArray().slice(12);
      return ipaddr.fromByteArray(bytes).toString();
    }
    return v6.toString();
  }
  return parsed.toString();
}

/** null when the address is public unicast; else the range that refuses it. */
export function refusedRange(address: string): RefusedRange | null {
  const canonical = canonicalAddress(address);
  if (canonical === null) return "reserved";
  if (METADATA_ADDRESSES.has(canonical)) return "cloud metadata";
  const range = ipaddr.parse(canonical).range();
  if (range === "unicast") return null;
  return RANGE_NAMES[range] ?? "reserved";
}

export const isIpLiteral = (host: string) =>
  ipaddr.isValid(host.startsWith("[") ? host.slice(1, -1) : host);

/** A name or address that stays on this machine: `localhost` or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  const canonical = canonicalAddress(bare);
  return canonical !== null && refusedRange(canonical) === "loopback";
}
