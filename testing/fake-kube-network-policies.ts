import ipaddr from "ipaddr.js";

// NetworkPolicies in the fake Kubernetes API (fake-kube-api.ts), as the API server admits them:
// networking/v1's defaults (a port's protocol is TCP; policyTypes is Ingress, plus Egress when
// there are egress rules), then its validation (pkg/apis/networking/validation): a peer is an
// ipBlock or selectors, never both; an ipBlock's `except` ranges are strict subsets of its
// `cidr`; protocols are TCP, UDP or SCTP; ports are 1-65535. A refusal is a 422 Invalid.

type Json = Record<string, unknown>;
interface Port {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Peer {
  podSelector?: Json;
  namespaceSelector?: Json;
  ipBlock?: { cidr?: string; except?: string[] };
}
interface Rule {
  ports?: Port[];
  to?: Peer[];
  from?: Peer[];
}
interface Spec {
  podSelector?: Json;
  policyTypes?: string[];
  ingress?: Rule[];
  egress?: Rule[];
}

/** The object as the API server stores it: defaults filled in. */
export function withNetworkPolicyDefaults(object: Json): Json {
  const spec = structuredClone((object.spec ?? {}) as Spec);
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])])
    for (const port of rule.ports ?? []) port.protocol ??= "TCP";
  if (!spec.policyTypes?.length)
    spec.policyTypes = spec.egress?.length ? ["Ingress", "Egress"] : ["Ingress"];
  return { ...object, spec };
}

function parsedCidr(text: string | undefined): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    return text ? ipaddr.parseCIDR(text) : null;
  } catch {
    return null;
  }
}

function ipBlockProblems(block: NonNullable<Peer["ipBlock"]>, path: string): string[] {
  const cidr = parsedCidr(block.cidr);
  if (!block.cidr) return [`${path}.cidr: Required value`];
  if (!cidr) return [`${path}.cidr: Invalid value: "${block.cidr}": not a valid CIDR`];
  return (block.except ?? []).flatMap((text, i) => {
    const except = parsedCidr(text);
    const at = `${path}.except[${i}]: Invalid value: "${text}"`;
    if (!except) return [`${at}: not a valid CIDR`];
    const inside = except[0].kind() === cidr[0].kind() && except[0].match(cidr);
    return inside && except[1] > cidr[1] ? [] : [`${at}: must be a strict subset of \`cidr\``];
  });
}

function peerProblems(peer: Peer, path: string): string[] {
  const kinds = [peer.podSelector, peer.namespaceSelector, peer.ipBlock].filter(Boolean).length;
  if (kinds === 0) return [`${path}: Required value: must specify a peer`];
  if (kinds > 1 && peer.ipBlock)
    return [`${path}: Forbidden: may not specify both ipBlock and another peer`];
  return peer.ipBlock ? ipBlockProblems(peer.ipBlock, `${path}.ipBlock`) : [];
}

function portProblems(port: Port, path: string): string[] {
  const problems: string[] = [];
  if (port.protocol && !["TCP", "UDP", "SCTP"].includes(port.protocol))
    problems.push(`${path}.protocol: Unsupported value: "${port.protocol}"`);
  if (typeof port.port === "number" && (port.port < 1 || port.port > 65535))
    problems.push(`${path}.port: Invalid value: ${port.port}: must be between 1 and 65535`);
  if (port.endPort !== undefined && typeof port.port !== "number")
    problems.push(`${path}.endPort: Invalid value: ${port.endPort}: needs a numeric port`);
  return problems;
}

/** What the API server would refuse in the object; empty when it admits it. */
export function networkPolicyProblems(object: Json): string[] {
  const spec = (object.spec ?? {}) as Spec;
  const problems: string[] = [];
  for (const [direction, peers] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const)
    (spec[direction] ?? []).forEach((rule, i) => {
      const path = `spec.${direction}[${i}]`;
      (rule.ports ?? []).forEach((p, j) =>
        problems.push(...portProblems(p, `${path}.ports[${j}]`)),
      );
      (rule[peers] ?? []).forEach((p, j) =>
        problems.push(...peerProblems(p, `${path}.${peers}[${j}]`)),
      );
    });
  for (const type of spec.policyTypes ?? [])
    if (type !== "Ingress" && type !== "Egress")
      problems.push(`spec.policyTypes: Unsupported value: "${type}"`);
  return problems;
}

/** The Status message of a refusal, as the API server words it. */
const invalidMessage = (name: string, problems: string[]) =>
  `NetworkPolicy.networking.k8s.io "${name}" is invalid: ${
    problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`
  }`;

/** An object of `kind` as stored (defaults filled in), or why the API server refuses it (422). */
export function admit(kind: string, object: Json): { object: Json } | { invalid: string } {
  if (kind !== "NetworkPolicy") return { object };
  const problems = networkPolicyProblems(object);
  const name = String((object.metadata as { name?: unknown } | undefined)?.name ?? "");
  return problems.length
    ? { invalid: invalidMessage(name, problems) }
    : { object: withNetworkPolicyDefaults(object) };
}
