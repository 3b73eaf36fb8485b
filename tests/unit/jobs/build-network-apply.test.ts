import type { V1NetworkPolicy } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StepFailure } from "../../../src/server/jobs/drivers/types";
import { loadKubeconfig } from "../../../src/server/jobs/drivers/kubernetes";
import {
  applyBuildNetworkPolicy,
  buildNetworkRule,
} from "../../../src/server/jobs/builder/images/build-network-apply";
import { buildNetworkPolicy } from "../../../src/server/jobs/builder/images/build-network-policy";
import { parseBuildEgress } from "../../../src/server/outbound/build-egress";
import type { Lookup } from "../../../src/server/outbound/resolve";
import { startFakeKubeApi, type FakeKubeApi } from "../../../testing/fake-kube-api";
import { NAMESPACE, TARGET } from "../../helpers/kube-build";

// The build pods' NetworkPolicy made true before a build: names resolved by the worker, then
// created, left alone while it says the same, replaced when the rule changes, against the fake
// Kubernetes API answering as the API server does (defaults, 409 on a create or replace race).

const POLICY_PATH = `/apis/networking.k8s.io/v1/namespaces/${NAMESPACE}/networkpolicies`;
const NAMES: Record<string, { address: string; family: number }[]> = {
  "hangar.example": [
    { address: "2001:db8:10::7", family: 6 },
    { address: "203.0.113.7", family: 4 },
  ],
  "registry.hangar.test": [{ address: "10.96.0.12", family: 4 }],
  "mirror.internal": [{ address: "10.20.30.40", family: 4 }],
};
const asked: string[] = [];
const resolve: Lookup = async (host) => {
  asked.push(host);
  const found = NAMES[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};

const ruleFor = (egress: string, over: { publicUrl?: string; registry?: string } = {}) =>
  buildNetworkRule({
    namespace: NAMESPACE,
    egress: parseBuildEgress(egress),
    publicUrl: over.publicUrl ?? "https://hangar.example",
    target: { ...TARGET, registry: over.registry ?? TARGET.registry },
    resolve,
  });

describe("what build pods may reach, names resolved", () => {
  beforeEach(() => void asked.splice(0));

  it("always Hangar's public URL (its port) and the registry (its port), whatever the rule", async () => {
    expect(await ruleFor("none")).toEqual({
      namespace: NAMESPACE,
      publicInternet: false,
      destinations: [
        { cidr: "2001:db8:10::7/128", port: 443 },
        { cidr: "203.0.113.7/32", port: 443 },
        { cidr: "10.96.0.12/32", port: 5000 },
      ],
    });
    const plain = await ruleFor("public", {
      publicUrl: "http://10.0.0.5:3000/",
      registry: "registry.hangar.test",
    });
    expect(plain.publicInternet).toBe(true);
    expect(plain.destinations).toEqual([
      { cidr: "10.0.0.5/32", port: 3000 },
      { cidr: "10.96.0.12/32", port: 443 },
    ]);
    // An address is not looked up.
    expect(asked).toEqual(["hangar.example", "registry.hangar.test", "registry.hangar.test"]);
  });

  it("a plain-HTTP registry without a port on 80 and 443; a bracketed IPv6 one on its port", async () => {
    const insecure = await buildNetworkRule({
      namespace: NAMESPACE,
      egress: parseBuildEgress("none"),
      publicUrl: "https://[2001:db8::1]:8443",
      target: { ...TARGET, registry: "registry.hangar.test", insecure: true },
      resolve,
    });
    expect(insecure.destinations).toEqual([
      { cidr: "2001:db8::1/128", port: 8443 },
      { cidr: "10.96.0.12/32", port: 80 },
      { cidr: "10.96.0.12/32", port: 443 },
    ]);
    const v6 = await ruleFor("none", { registry: "[fd00::5]:5000" });
    expect(v6.destinations.at(-1)).toEqual({ cidr: "fd00::5/128", port: 5000 });
  });

  it("HANGAR_BUILD_EGRESS entries: a range, an address on a port, a name resolved now", async () => {
    const { destinations } = await ruleFor(
      "public,10.20.0.0/16,192.168.7.10:3128,mirror.internal:8080",
    );
    expect(destinations.slice(0, 3)).toEqual([
      { cidr: "10.20.0.0/16", port: null },
      { cidr: "192.168.7.10/32", port: 3128 },
      { cidr: "10.20.30.40/32", port: 8080 },
    ]);
  });

  it("fails the build, naming it, when the worker cannot resolve a name", async () => {
    for (const [egress, host, what] of [
      ["public,nowhere.internal", "nowhere.internal", "listed in HANGAR_BUILD_EGRESS"],
      ["public", "gone.example", "HANGAR_PUBLIC_URL, where build pods fetch their context"],
    ]) {
      const failed = await ruleFor(egress!, {
        publicUrl: host === "gone.example" ? "https://gone.example" : undefined,
      }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(StepFailure);
      expect((failed as Error).message).toBe(
        `The worker could not resolve ${host} (${what}): build pods' NetworkPolicy allows addresses, so the worker resolves every name when a build starts (README, Builds).`,
      );
    }
  });
});

describe("applying the build pods' NetworkPolicy", () => {
  let kube: FakeKubeApi;
  beforeEach(async () => {
    kube = await startFakeKubeApi();
  });
  afterEach(() => kube.stop());

  const apply = (policy: V1NetworkPolicy) =>
    applyBuildNetworkPolicy(loadKubeconfig(kube.kubeconfig()), policy);
  const policyOf = async (egress: string) => buildNetworkPolicy(await ruleFor(egress));
  const writes = () =>
    kube.requests
      .filter((r) => r.path.startsWith(POLICY_PATH) && r.method !== "GET")
      .map((r) => `${r.method} ${r.path.slice(POLICY_PATH.length) || "/"}`);
  const stored = () =>
    kube.objects.get(`${POLICY_PATH}/hangar-build-egress`) as V1NetworkPolicy | undefined;

  it("creates it once; the same rule again writes nothing; another rule replaces it", async () => {
    const open = await policyOf("public");
    expect(await apply(open)).toBe("created");
    expect(await apply(open)).toBe("unchanged");
    expect(await apply(await policyOf("public"))).toBe("unchanged");
    expect(writes()).toEqual(["POST /"]);
    expect(stored()!.spec).toEqual(open.spec);

    const closed = await policyOf("none");
    expect(await apply(closed)).toBe("replaced");
    expect(await apply(closed)).toBe("unchanged");
    expect(writes()).toEqual(["POST /", "PUT /hangar-build-egress"]);
    expect(stored()!.spec).toEqual(closed.spec);
    // Replaced on the version it read, keeping the object's identity.
    const put = kube.requests.find((r) => r.method === "PUT")!;
    expect((put.body as V1NetworkPolicy).metadata!.resourceVersion).toBe("1");
    expect(stored()!.metadata!.resourceVersion).toBe("2");
  });

  it("is not fooled by what the API server fills in (a port's protocol, policyTypes)", async () => {
    const policy = await policyOf("public");
    const bare = structuredClone(policy);
    delete bare.spec!.policyTypes;
    for (const rule of bare.spec!.egress!)
      for (const port of rule.ports!) if (port.protocol === "TCP") delete port.protocol;
    // Another writer's equivalent policy, as the API server keeps it: ours says the same.
    expect(await apply(bare)).toBe("created");
    expect(stored()!.spec!.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(await apply(policy)).toBe("unchanged");
  });

  it("settles when two workers apply at once (the create race's 409, the replace race's 409)", async () => {
    const open = await policyOf("public");
    expect((await Promise.all([apply(open), apply(open)])).sort()).toEqual([
      "created",
      "unchanged",
    ]);
    const writesSoFar = () => kube.requests.filter((r) => r.method !== "GET").length;
    expect(writesSoFar()).toBe(2); // two creates, one answered 409 AlreadyExists

    const closed = await policyOf("none");
    const listed = await policyOf("public,10.20.0.0/16");
    expect(await Promise.all([apply(closed), apply(listed)])).toEqual(["replaced", "replaced"]);
    // Both replaced what they read; the second PUT was refused (409 Conflict), read again, won.
    expect(writes().slice(2)).toEqual([
      "PUT /hangar-build-egress",
      "PUT /hangar-build-egress",
      "PUT /hangar-build-egress",
    ]);
  });

  it("fails naming what Kubernetes refused (no permission for networkpolicies)", async () => {
    kube.failOn(
      `${POLICY_PATH}/hangar-build-egress`,
      403,
      'networkpolicies.networking.k8s.io "hangar-build-egress" is forbidden: User "hangar" cannot get resource "networkpolicies"',
    );
    const refused = await apply(await policyOf("public")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StepFailure);
    expect((refused as Error).message).toBe(
      `Kubernetes refused the build pods' NetworkPolicy ${NAMESPACE}/hangar-build-egress: networkpolicies.networking.k8s.io "hangar-build-egress" is forbidden: User "hangar" cannot get resource "networkpolicies"`,
    );
  });

  it("is admitted by the API server's validation, which refuses an `except` outside its `cidr`", async () => {
    const policy = await policyOf("public,10.20.0.0/16,mirror.internal:8080");
    expect(await apply(policy)).toBe("created");
    const wrong = structuredClone(policy);
    wrong.spec!.egress![1]!.to![0]!.ipBlock!.except = ["10.0.0.0/8", "0.0.0.0/0"];
    const refused = await apply(wrong).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      `Kubernetes refused the build pods' NetworkPolicy ${NAMESPACE}/hangar-build-egress: NetworkPolicy.networking.k8s.io "hangar-build-egress" is invalid: spec.egress[1].to[0].ipBlock.except[1]: Invalid value: "0.0.0.0/0": must be a strict subset of \`cidr\``,
    );
  });
});
