import type {
  V1NetworkPolicy,
  V1NetworkPolicyEgressRule,
  V1NetworkPolicyPeer,
} from "@kubernetes/client-node";
import ipaddr from "ipaddr.js";
import { MANAGED_BY } from "../../manifests/names-and-labels";
import { BUILD_POD_LABELS } from "./build-job";

// Where build pods may connect, as one NetworkPolicy of the build namespace: HANGAR_BUILD_EGRESS,
// the rule the local builder's egress proxy applies, written in addresses. `public` is every
// address the outbound address policy (outbound/address-policy.ts) calls public unicast; listed
// addresses and ranges are allowed whatever their range; the cluster's DNS, Hangar's public URL
// (the context) and the registry are always reachable. No ingress at all. Names are resolved
// by the caller (build-network-apply.ts): a NetworkPolicy holds addresses only.

export const BUILD_NETWORK_POLICY = "hangar-build-egress";

/**
 * IPv4 ranges the outbound address policy refuses: ipaddr.js's special ranges (all but
 * "unicast") and the metadata addresses address-policy.ts names. Broadcast is in 240.0.0.0/4,
 * 169.254.169.254 in link-local, Alibaba's 100.100.100.200 in CGNAT.
 */
export const REFUSED_IPV4 = [
  "0.0.0.0/8", // unspecified
  "10.0.0.0/8", // private (RFC 1918)
  "100.64.0.0/10", // CGNAT
  "127.0.0.0/8", // loopback
  "168.63.129.16/32", // Azure's metadata and wire server
  "169.254.0.0/16", // link-local, cloud metadata
  "172.16.0.0/12", // private
  "192.0.0.0/24", // reserved (IETF protocol assignments)
  "192.0.2.0/24", // documentation
  "192.31.196.0/24", // AS112
  "192.52.193.0/24", // AMT
  "192.88.99.0/24", // 6to4 relay
  "192.168.0.0/16", // private
  "192.175.48.0/24", // AS112
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, broadcast
];

/** The IPv6 ranges it refuses; NAT64 (64:ff9b::/96) is allowed below for public IPv4 inside. */
export const REFUSED_IPV6 = [
  "::/128", // unspecified
  "::1/128", // loopback
  "::ffff:0:0/96", // IPv4-mapped: sent as IPv4, so the IPv4 rule decides
  "::ffff:0:0:0/96", // IPv4-translated (RFC 6145)
  "64:ff9b::/96", // NAT64
  "64:ff9b:1::/48", // local-use NAT64 (RFC 8215): refused whole, its IPv4 is not at one place
  "100::/64", // discard
  "2001::/23", // IETF protocol assignments: Teredo, benchmarking, AMT, AS112, ORCHID
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4
  "2620:4f:8000::/48", // AS112
  "3fff::/20", // documentation
  "5f00::/16", // segment routing
  "fc00::/7", // unique-local, incl. AWS's metadata fd00:ec2::254
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
];

const NAT64 = "64:ff9b::/96";

/** `64:ff9b::a00:0/104` for `10.0.0.0/8`: an IPv4 range as NAT64 addresses. */
function nat64Of(cidr: string): string {
  const [address, bits] = ipaddr.IPv4.parseCIDR(cidr);
  const bytes = [0, 0x64, 0xff, 0x9b, ...Array<number>(8).fill(0), ...address.toByteArray()];
  return `${ipaddr.fromByteArray(bytes).toString()}/${96 + bits}`;
}

/** A range in the form the API server keeps: its network address, compressed IPv6. */
export function canonicalCidr(cidr: string): string {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  const network =
    address.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
      : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${bits}`;
}

/** One address as a range of itself. */
export const hostCidr = (address: string) =>
  `${address}/${ipaddr.parse(address).kind() === "ipv4" ? 32 : 128}`;

export interface BuildNetworkRule {
  namespace: string;
  /** Any public unicast address (HANGAR_BUILD_EGRESS `public`). */
  publicInternet: boolean;
  /** Ranges reachable whatever their addresses are, on one TCP port or on all (null). */
  destinations: { cidr: string; port: number | null }[];
}

const ipBlock = (cidr: string, except?: string[]): V1NetworkPolicyPeer => ({
  ipBlock: except ? { cidr, except } : { cidr },
});

/** The cluster's resolver, so that names resolve (CoreDNS or kube-dns, in kube-system). */
const DNS_RULE: V1NetworkPolicyEgressRule = {
  to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } } }],
  ports: [
    { protocol: "UDP", port: 53 },
    { protocol: "TCP", port: 53 },
  ],
};

/** Every public unicast address, IPv4 and IPv6 (NAT64 included), on TCP. */
const PUBLIC_RULE: V1NetworkPolicyEgressRule = {
  to: [
    ipBlock("0.0.0.0/0", REFUSED_IPV4),
    ipBlock("::/0", REFUSED_IPV6),
    ipBlock(NAT64, REFUSED_IPV4.map(nat64Of)),
  ],
  ports: [{ protocol: "TCP" }],
};

/**
 * The policy, the same for the same rule: destinations are deduplicated, grouped by port and
 * sorted, so the resolver's order never makes a policy look changed. Builds fetch over TCP
 * (HTTP, git), so TCP only; explicit protocols spare the API server's defaulting.
 */
export function buildNetworkPolicy(rule: BuildNetworkRule): V1NetworkPolicy {
  const byPort = new Map<number | null, Set<string>>();
  for (const { cidr, port } of rule.destinations) {
    const set = byPort.get(port) ?? new Set<string>();
    set.add(canonicalCidr(cidr));
    byPort.set(port, set);
  }
  const listed = [...byPort]
    .sort(([a], [b]) => (a ?? 0) - (b ?? 0))
    .map(([port, cidrs]): V1NetworkPolicyEgressRule => ({
      to: [...cidrs].sort().map((cidr) => ipBlock(cidr)),
      ports: [port === null ? { protocol: "TCP" } : { protocol: "TCP", port }],
    }));
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: {
      name: BUILD_NETWORK_POLICY,
      namespace: rule.namespace,
      labels: { "app.kubernetes.io/managed-by": MANAGED_BY },
    },
    spec: {
      podSelector: { matchLabels: { ...BUILD_POD_LABELS } },
      policyTypes: ["Ingress", "Egress"],
      egress: [DNS_RULE, ...(rule.publicInternet ? [PUBLIC_RULE] : []), ...listed],
    },
  };
}
