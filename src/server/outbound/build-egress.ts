import { refusedRange } from "./address-policy";
import { parseAllowlist, type Allowlist } from "./allowlist";
import { OutboundError } from "./errors";
import { candidateAddresses, type Lookup } from "./resolve";

// HANGAR_BUILD_EGRESS: where a build's steps may connect. `public` is any public unicast
// address (the outbound address policy: never loopback, private, link-local, metadata...);
// `none` is nothing; other entries (host[:port], address, CIDR) are allowed by name, private
// ones included, so an operator can list an internal package mirror. The local builder's egress
// proxy applies it per connection; the Kubernetes builder writes it into a NetworkPolicy.

const SETTING = "HANGAR_BUILD_EGRESS";

export interface BuildEgress {
  /** Any public unicast address may be reached. */
  public: boolean;
  /** Destinations reachable besides (or instead of) the public internet. */
  allowlist: Allowlist;
}

export function parseBuildEgress(raw: string | undefined): BuildEgress {
  const entries = (raw ?? "public")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.includes("none")) {
    if (entries.length > 1) throw new Error(`${SETTING}: "none" cannot be combined with entries`);
    return { public: false, allowlist: parseAllowlist("", SETTING) };
  }
  return {
    public: entries.includes("public"),
    allowlist: parseAllowlist(entries.filter((e) => e !== "public").join(","), SETTING),
  };
}

/** The rule with `entries` (host:port) allowed too: the registry, for a build's pull and push. */
export function allowingAlso(egress: BuildEgress, entries: readonly string[]): BuildEgress {
  const extra = parseAllowlist(entries.join(","), SETTING);
  return {
    public: egress.public,
    allowlist: {
      entries: [...egress.allowlist.entries, ...extra.entries],
      allows: (hostname, port, address) =>
        egress.allowlist.allows(hostname, port, address) || extra.allows(hostname, port, address),
    },
  };
}

/**
 * Resolves `hostname` once and returns the address a build may connect to, or throws an
 * OutboundError (kind "refused") saying why not. The caller dials exactly this address.
 */
export async function checkedBuildAddress(
  hostname: string,
  port: number,
  egress: BuildEgress,
  resolve?: Lookup,
): Promise<string> {
  const { literal, candidates } = await candidateAddresses(hostname, resolve);
  const allowed = candidates.find(
    (address) =>
      egress.allowlist.allows(hostname, port, address) ||
      (egress.public && refusedRange(address) === null),
  );
  if (allowed) return allowed;
  const first = candidates[0];
  const range = first ? refusedRange(first) : "reserved";
  const what = literal ? `${hostname}` : `${hostname} (${first ?? "no address"})`;
  const why = !egress.public
    ? "is not listed in HANGAR_BUILD_EGRESS"
    : `is a ${range ?? "public"} address, which builds may not reach (HANGAR_BUILD_EGRESS)`;
  throw new OutboundError("refused", `${what}:${port} ${why}`);
}
