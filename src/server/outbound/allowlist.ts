import ipaddr from "ipaddr.js";
import { canonicalAddress } from "./address-policy";

// HANGAR_EGRESS_ALLOWLIST: comma-separated `host`, `host:port`, `[v6]:port` or CIDR entries
// that may be reached although their address is in a refused range.

export type AllowlistEntry = Entry;

type Entry =
  | { kind: "name"; host: string; port: number | null }
  | { kind: "address"; address: string; port: number | null }
  | { kind: "cidr"; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

export interface Allowlist {
  /** Whether a request to `hostname:port` that connects to `address` is allowed by an entry. */
  allows(hostname: string, port: number, address: string | null): boolean;
  readonly entries: readonly Entry[];
}

function parsePort(text: string | undefined, entry: string, setting: string): number | null {
  if (text === undefined) return null;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
    throw new Error(`${setting}: bad port in "${entry}"`);
  return port;
}

function parseEntry(entry: string, setting: string): Entry {
  if (entry.includes("/")) {
    try {
      return { kind: "cidr", range: ipaddr.parseCIDR(entry) };
    } catch {
      throw new Error(`${setting}: "${entry}" is not a valid CIDR range`);
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    const address = canonicalAddress(bracketed[1]!);
    if (!address) throw new Error(`${setting}: "${entry}" is not a valid address`);
    return { kind: "address", address, port: parsePort(bracketed[2], entry, setting) };
  }
  if (ipaddr.IPv6.isValid(entry))
    return { kind: "address", address: canonicalAddress(entry)!, port: null };
  const [host, port, extra] = entry.split(":");
  if (!host || extra !== undefined || !/^[a-z0-9.-]+$/i.test(host))
    throw new Error(`${setting}: "${entry}" is not host[:port] or a CIDR range`);
  const address = canonicalAddress(host);
  return address
    ? { kind: "address", address, port: parsePort(port, entry, setting) }
    : { kind: "name", host: host.toLowerCase(), port: parsePort(port, entry, setting) };
}

/** Comma-separated entries; `setting` names the variable in errors. */
export function parseAllowlist(
  raw: string | undefined,
  setting = "HANGAR_EGRESS_ALLOWLIST",
): Allowlist {
  const entries = (raw ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => parseEntry(entry, setting));
  return {
    entries,
    allows(hostname, port, address) {
      const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
      const canonical = address ? canonicalAddress(address) : canonicalAddress(name);
      return entries.some((e) => {
        if (e.kind === "name") return e.host === name && (e.port === null || e.port === port);
        if (e.kind === "address")
          return e.address === canonical && (e.port === null || e.port === port);
        if (!canonical) return false;
        const parsed = ipaddr.parse(canonical);
        return parsed.kind() === e.range[0].kind() && parsed.match(e.range);
      });
    },
  };
}
