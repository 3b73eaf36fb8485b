import { randomInt } from "node:crypto";
import type { V1NetworkPolicyEgressRule, V1NetworkPolicyPeer } from "@kubernetes/client-node";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { buildJob } from "../../../src/server/jobs/builder/images/build-job";
import {
  buildNetworkPolicy,
  REFUSED_IPV4,
  REFUSED_IPV6,
  type BuildNetworkRule,
} from "../../../src/server/jobs/builder/images/build-network-policy";
import { canonicalAddress, refusedRange } from "../../../src/server/outbound/address-policy";
import { specWith } from "../../helpers/kube-build";

// The build pods' NetworkPolicy as rendered from HANGAR_BUILD_EGRESS (names already resolved):
// exact for `public`, `none` and a list, and the same rule as the outbound address policy the
// local builder's proxy applies, address by address.

const NAMESPACE = "hangar-builds";
const rule = (over: Partial<BuildNetworkRule> = {}): BuildNetworkRule => ({
  namespace: NAMESPACE,
  publicInternet: true,
  destinations: [],
  ...over,
});
const egressOf = (r: BuildNetworkRule) => buildNetworkPolicy(r).spec!.egress!;

const DNS = {
  to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } } }],
  ports: [
    { protocol: "UDP", port: 53 },
    { protocol: "TCP", port: 53 },
  ],
};
const V4_EXCEPT = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "168.63.129.16/32",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
];
const V6_EXCEPT = [
  "::/128",
  "::1/128",
  "::ffff:0:0/96",
  "::ffff:0:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "2001::/23",
  "2001:db8::/32",
  "2002::/16",
  "2620:4f:8000::/48",
  "3fff::/20",
  "5f00::/16",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
];
/** V4_EXCEPT as NAT64 addresses (64:ff9b::/96 + the IPv4 address). */
const NAT64_EXCEPT = [
  "64:ff9b::/104",
  "64:ff9b::a00:0/104",
  "64:ff9b::6440:0/106",
  "64:ff9b::7f00:0/104",
  "64:ff9b::a83f:8110/128",
  "64:ff9b::a9fe:0/112",
  "64:ff9b::ac10:0/108",
  "64:ff9b::c000:0/120",
  "64:ff9b::c000:200/120",
  "64:ff9b::c01f:c400/120",
  "64:ff9b::c034:c100/120",
  "64:ff9b::c058:6300/120",
  "64:ff9b::c0a8:0/112",
  "64:ff9b::c0af:3000/120",
  "64:ff9b::c612:0/111",
  "64:ff9b::c633:6400/120",
  "64:ff9b::cb00:7100/120",
  "64:ff9b::e000:0/100",
  "64:ff9b::f000:0/100",
];
const PUBLIC = {
  to: [
    { ipBlock: { cidr: "0.0.0.0/0", except: V4_EXCEPT } },
    { ipBlock: { cidr: "::/0", except: V6_EXCEPT } },
    { ipBlock: { cidr: "64:ff9b::/96", except: NAT64_EXCEPT } },
  ],
  ports: [{ protocol: "TCP" }],
};

describe("the build pods' NetworkPolicy", () => {
  it("selects the build pods by labels their Job's pod template carries, and lets nothing in", () => {
    const policy = buildNetworkPolicy(rule());
    expect(policy.metadata).toEqual({
      name: "hangar-build-egress",
      namespace: NAMESPACE,
      labels: { "app.kubernetes.io/managed-by": "hangar" },
    });
    const selector = policy.spec!.podSelector!.matchLabels!;
    expect(selector).toEqual({
      "app.kubernetes.io/managed-by": "hangar",
      "app.kubernetes.io/component": "image-build",
    });
    const labels = buildJob(specWith()).spec!.template.metadata!.labels!;
    expect(labels).toMatchObject(selector);
    expect(policy.spec!.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(policy.spec!.ingress).toBeUndefined();
  });

  it("`public`: every public unicast address on TCP, and the cluster's DNS", () => {
    expect(egressOf(rule())).toEqual([DNS, PUBLIC]);
  });

  it("`none`: the cluster's DNS and the destinations Hangar adds (its URL, the registry) only", () => {
    const destinations = [
      { cidr: "203.0.113.7/32", port: 443 },
      { cidr: "10.96.0.12/32", port: 5000 },
    ];
    expect(egressOf(rule({ publicInternet: false, destinations }))).toEqual([
      DNS,
      { to: [{ ipBlock: { cidr: "203.0.113.7/32" } }], ports: [{ protocol: "TCP", port: 443 }] },
      { to: [{ ipBlock: { cidr: "10.96.0.12/32" } }], ports: [{ protocol: "TCP", port: 5000 }] },
    ]);
  });

  it("a list: a private range on every port, an address on its port, beside `public`", () => {
    const destinations = [
      { cidr: "10.20.0.0/16", port: null },
      { cidr: "192.168.7.10/32", port: 3128 },
      { cidr: "fd12:3456::/48", port: null },
      { cidr: "2001:db8::5/128", port: 3128 },
    ];
    expect(egressOf(rule({ destinations }))).toEqual([
      DNS,
      PUBLIC,
      {
        to: [{ ipBlock: { cidr: "10.20.0.0/16" } }, { ipBlock: { cidr: "fd12:3456::/48" } }],
        ports: [{ protocol: "TCP" }],
      },
      {
        to: [{ ipBlock: { cidr: "192.168.7.10/32" } }, { ipBlock: { cidr: "2001:db8::5/128" } }],
        ports: [{ protocol: "TCP", port: 3128 }],
      },
    ]);
  });

  it("is the same policy whatever the order or form the destinations come in", () => {
    const destinations = [
      { cidr: "10.20.1.2/16", port: null },
      { cidr: "10.0.0.9/32", port: 443 },
      { cidr: "10.0.0.8/32", port: 443 },
      { cidr: "10.0.0.9/32", port: 443 },
      { cidr: "2001:0db8:0:0::1/128", port: 443 },
    ];
    const once = buildNetworkPolicy(rule({ destinations }));
    expect(buildNetworkPolicy(rule({ destinations: [...destinations].reverse() }))).toEqual(once);
    expect(once.spec!.egress!.slice(2)).toEqual([
      { to: [{ ipBlock: { cidr: "10.20.0.0/16" } }], ports: [{ protocol: "TCP" }] },
      {
        to: [
          { ipBlock: { cidr: "10.0.0.8/32" } },
          { ipBlock: { cidr: "10.0.0.9/32" } },
          { ipBlock: { cidr: "2001:db8::1/128" } },
        ],
        ports: [{ protocol: "TCP", port: 443 }],
      },
    ]);
  });

  it("passes the API server's validation: every `except` is a strict subset of its `cidr`", () => {
    for (const { to } of egressOf(rule()))
      for (const peer of to!) {
        if (!peer.ipBlock) continue;
        const [network, bits] = ipaddr.parseCIDR(peer.ipBlock.cidr);
        for (const text of peer.ipBlock.except ?? []) {
          const [address, length] = ipaddr.parseCIDR(text);
          expect(address.kind(), text).toBe(network.kind());
          expect(address.match(network, bits) && length > bits, text).toBe(true);
        }
      }
  });
});

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
/** The `public` rule's ipBlocks, parsed once. */
const publicBlocks = (egressOf(rule())[1] as V1NetworkPolicyEgressRule).to!.map(
  ({ ipBlock }: V1NetworkPolicyPeer) => ({
    cidr: ipaddr.parseCIDR(ipBlock!.cidr) as Range,
    except: (ipBlock!.except ?? []).map((text) => ipaddr.parseCIDR(text) as Range),
  }),
);

/** Whether the `public` rule lets a packet to `address` out, as a network plugin decides. */
function publicRuleAllows(address: string): boolean {
  // An IPv4-mapped destination leaves the kernel as IPv4.
  const parsed = ipaddr.parse(address);
  const wire =
    parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  const inside = (range: Range) => range[0].kind() === wire.kind() && wire.match(range);
  return publicBlocks.some((block) => inside(block.cidr) && !block.except.some(inside));
}

type Ranges = Record<
  string,
  [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]
>;
/** ipaddr.js's table of special ranges, which the outbound address policy refuses. */
const specialRanges = (kind: "IPv4" | "IPv6") =>
  Object.entries(
    (ipaddr[kind].prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges,
  ).flatMap(([name, ranges]) =>
    (Array.isArray(ranges[0]) ? ranges : [ranges]).map((range) => ({
      name,
      range: range as [ipaddr.IPv4 | ipaddr.IPv6, number],
    })),
  );

/** The first and last address of a range, and those just outside it. */
function edges([network, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): string[] {
  const bytes = network.toByteArray();
  const width = bytes.length * 8;
  const value = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
  const size = 1n << BigInt(width - bits);
  const first = (value >> BigInt(width - bits)) << BigInt(width - bits);
  const max = (1n << BigInt(width)) - 1n;
  const addressOf = (n: bigint) => {
    const out: number[] = [];
    for (let i = bytes.length - 1; i >= 0; i--)
      out[i] = Number((n >> BigInt(8 * (bytes.length - 1 - i))) & 255n);
    return ipaddr.fromByteArray(out).toString();
  };
  return [first - 1n, first, first + size - 1n, first + size]
    .filter((n) => n >= 0n && n <= max)
    .map(addressOf);
}

const randomV4 = () => [0, 0, 0, 0].map(() => randomInt(256)).join(".");
const randomV6 = (prefix: number[] = []) =>
  ipaddr
    .fromByteArray([...prefix, ...Array.from({ length: 16 - prefix.length }, () => randomInt(256))])
    .toString();

describe("the `public` rule and the outbound address policy", () => {
  it("refuse the same addresses: every special range's edges, and random ones", () => {
    const addresses = [
      ...[...specialRanges("IPv4"), ...specialRanges("IPv6")].flatMap(({ range }) => edges(range)),
      ...[...REFUSED_IPV4, ...REFUSED_IPV6].flatMap((cidr) => edges(ipaddr.parseCIDR(cidr))),
      "169.254.169.254",
      "168.63.129.16",
      "100.100.100.200",
      "fd00:ec2::254",
      "8.8.8.8",
      "2606:4700:4700::1111",
      ...Array.from({ length: 4000 }, () => randomV4()),
      ...Array.from({ length: 2000 }, () => randomV6()),
      ...Array.from({ length: 1000 }, () => randomV6([0x20, 0x01])),
      // NAT64 with an IPv4 address inside, and IPv4-mapped addresses, either side of the line.
      ...Array.from({ length: 1000 }, () => `64:ff9b::${randomV4()}`),
      ...Array.from({ length: 500 }, () => `64:ff9b::10.${randomInt(256)}.${randomInt(256)}.1`),
      ...Array.from({ length: 500 }, () => `64:ff9b::169.254.${randomInt(256)}.${randomInt(256)}`),
      ...Array.from({ length: 500 }, () => `::ffff:${randomV4()}`),
    ].filter((address) => ipaddr.isValid(address));
    for (const address of addresses) {
      // RFC 8215's local-use NAT64 prefix is refused whole (its IPv4 part is not at one place).
      const localUseNat64 =
        ipaddr.parse(address).kind() === "ipv6" &&
        (ipaddr.parse(address) as ipaddr.IPv6).match(
          ipaddr.parseCIDR("64:ff9b:1::/48") as [ipaddr.IPv6, number],
        );
      if (localUseNat64) {
        expect(publicRuleAllows(address), address).toBe(false);
        continue;
      }
      expect(publicRuleAllows(address), `${address} (${canonicalAddress(address)})`).toBe(
        refusedRange(address) === null,
      );
    }
  });
});
