import { NetworkingV1Api, type KubeConfig, type V1NetworkPolicy } from "@kubernetes/client-node";
import { canonicalAddress } from "@/server/outbound/address-policy";
import type { BuildEgress } from "@/server/outbound/build-egress";
import type { Lookup } from "@/server/outbound/resolve";
import { reasonOf, statusOf } from "../../drivers/kubernetes";
import { StepFailure, type ImageTarget } from "../../drivers/types";
import { hostCidr, type BuildNetworkRule } from "./build-network-policy";

// The build pods' NetworkPolicy made true before each build (build-network-policy.ts renders
// it): names (HANGAR_BUILD_EGRESS entries, Hangar's public URL, the registry) are resolved now,
// by the worker, since a NetworkPolicy holds addresses only; then the policy is read and created,
// replaced or left alone, so builds with the same settings change nothing. Two workers racing
// each read again and settle on one.

export type PolicyOutcome = "created" | "replaced" | "unchanged";

/** Reads, then writes, that may lose a race with another worker before the apply gives up. */
const ATTEMPTS = 3;

async function addressesOf(host: string, what: string, resolve: Lookup): Promise<string[]> {
  const literal = canonicalAddress(host);
  if (literal) return [literal];
  const found = await resolve(host).catch(() => []);
  const addresses = [...new Set(found.map((a) => canonicalAddress(a.address) ?? a.address))];
  if (addresses.length === 0)
    throw new StepFailure(
      `The worker could not resolve ${host} (${what}): build pods' NetworkPolicy allows addresses, so the worker resolves every name when a build starts (README, Builds).`,
    );
  return addresses;
}

/** `host[:port]` or `[v6][:port]` (a URL would drop a port that is its scheme's default). */
function hostAndPort(authority: string): { host: string; port: number | null } {
  const [, bracketed, plain, port] = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(authority) ?? [];
  return { host: bracketed ?? plain ?? authority, port: port ? Number(port) : null };
}

/** What the build pods may reach, names resolved: the rule, the context's origin, the registry. */
export async function buildNetworkRule(input: {
  namespace: string;
  egress: BuildEgress;
  /** HANGAR_PUBLIC_URL: the pod fetches its context from it. */
  publicUrl: string;
  /** The registry the pod pushes to and pulls bases from (HANGAR_REGISTRY_URL). */
  target: ImageTarget;
  resolve: Lookup;
}): Promise<BuildNetworkRule> {
  const { egress, resolve } = input;
  const destinations: BuildNetworkRule["destinations"] = [];
  const reach = async (host: string, ports: (number | null)[], what: string) => {
    for (const address of await addressesOf(host, what, resolve))
      for (const port of ports) destinations.push({ cidr: hostCidr(address), port });
  };
  for (const entry of egress.allowlist.entries) {
    if (entry.kind === "cidr")
      destinations.push({ cidr: `${entry.range[0].toString()}/${entry.range[1]}`, port: null });
    else if (entry.kind === "address")
      destinations.push({ cidr: hostCidr(entry.address), port: entry.port });
    else await reach(entry.host, [entry.port], "listed in HANGAR_BUILD_EGRESS");
  }
  const origin = new URL(input.publicUrl);
  await reach(
    origin.hostname.replace(/^\[|\]$/g, ""),
    [Number(origin.port) || (origin.protocol === "https:" ? 443 : 80)],
    "HANGAR_PUBLIC_URL, where build pods fetch their context",
  );
  // BuildKit speaks plain HTTP to an insecure registry and may try TLS first.
  const registry = hostAndPort(input.target.registry);
  await reach(
    registry.host,
    registry.port ? [registry.port] : input.target.insecure ? [80, 443] : [443],
    "HANGAR_REGISTRY_URL, where build pods push",
  );
  return { namespace: input.namespace, publicInternet: egress.public, destinations };
}

/** The object without what the API server adds or leaves out (undefined, empty lists). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

const same = (stored: V1NetworkPolicy, wanted: V1NetworkPolicy) =>
  JSON.stringify(canonical([stored.spec, stored.metadata?.labels])) ===
  JSON.stringify(canonical([wanted.spec, wanted.metadata?.labels]));

/** Creates the policy, replaces one that differs, or leaves an equal one alone. */
export async function applyBuildNetworkPolicy(
  kubeconfig: KubeConfig,
  policy: V1NetworkPolicy,
): Promise<PolicyOutcome> {
  const api = kubeconfig.makeApiClient(NetworkingV1Api);
  const name = policy.metadata!.name!;
  const namespace = policy.metadata!.namespace!;
  const refused = (error: unknown) =>
    new StepFailure(
      `Kubernetes refused the build pods' NetworkPolicy ${namespace}/${name}: ${reasonOf(error)}`,
    );
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const stored = await api
      .readNamespacedNetworkPolicy({ name, namespace })
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return null;
        throw refused(error);
      });
    try {
      if (!stored) {
        await api.createNamespacedNetworkPolicy({ namespace, body: policy });
        return "created";
      }
      if (same(stored, policy)) return "unchanged";
      const body = {
        ...policy,
        metadata: { ...policy.metadata, resourceVersion: stored.metadata?.resourceVersion },
      };
      await api.replaceNamespacedNetworkPolicy({ name, namespace, body });
      return "replaced";
    } catch (error) {
      // 409: another worker created or changed it since the read; read it again.
      if (statusOf(error) !== 409) throw refused(error);
    }
  }
  throw new StepFailure(
    `The build pods' NetworkPolicy ${namespace}/${name} kept changing while it was applied: do all workers share HANGAR_BUILD_EGRESS?`,
  );
}
