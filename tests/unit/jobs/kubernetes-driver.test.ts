import type { V1Deployment } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { driversFromEnv, StepFailure } from "../../../src/server/jobs/drivers";
import { kubernetesDeployer, loadKubeconfig } from "../../../src/server/jobs/drivers/kubernetes";
import { describeObject } from "../../../src/server/jobs/manifests/describe";
import {
  redactManifests,
  renderManifests,
  type KubernetesObject,
} from "../../../src/server/jobs/manifests";
import {
  API_RESOURCES,
  APPLY_PATCH,
  CRASH_LOG,
  startFakeKubeApi,
  UNSCHEDULABLE_MESSAGE,
  type FakeKubeApi,
} from "../../../testing/fake-kube-api";
import { find, inputWith } from "../manifests/fixtures";

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

const SECRET_VALUES = ["sk-live-very-secret", "tok-123", "p@ss/word", "p%40ss%2Fword"];

/** Where the API serves an object: by its kind's plural, under its namespace if namespaced. */
function pathOf(object: KubernetesObject): string {
  const apiVersion = object.apiVersion!;
  const resource = API_RESOURCES[apiVersion]!.find((r) => r.kind === object.kind)!;
  const root = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const scope = resource.namespaced ? `/namespaces/${object.metadata!.namespace}` : "";
  return `${root}${scope}/${resource.name}/${object.metadata!.name}`;
}

let api: FakeKubeApi;
let objects: KubernetesObject[];
const FAST = { timeoutMs: 5_000, pollMs: 20 };
const deployer = (token?: string, rollout = FAST) =>
  kubernetesDeployer(loadKubeconfig(api.kubeconfig(token)), rollout);
const writes = () => api.requests.filter((r) => r.method !== "GET");
const discovery = () =>
  api.requests.filter((r) => r.method === "GET" && !r.path.includes("/namespaces"));
const workloads = () => objects.filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet");
const applied = () => objects.map((o) => `Applied ${describeObject(o)}`);

beforeEach(async () => {
  api = await startFakeKubeApi();
  objects = renderManifests(inputWith());
});
afterEach(() => api.stop());

describe("the Kubernetes driver's apply", () => {
  it("server-side applies every object once, in order, at its path, as the field manager", async () => {
    const sent = structuredClone(objects);
    const { lines } = await deployer().apply(objects);

    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set([
        "Namespace",
        "Secret",
        "StatefulSet",
        "Service",
        "Deployment",
        "HorizontalPodAutoscaler",
      ]),
    );
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual(
      objects.map((o) => `PATCH ${pathOf(o)}`),
    );
    const namespace = objects[0]!.metadata!.name!;
    expect(pathOf(objects[0]!)).toBe(`/api/v1/namespaces/${namespace}`);
    expect(writes().map((r) => r.path)).toContain(
      `/apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/support-agent`,
    );
    for (const [i, request] of writes().entries()) {
      expect(request.query).toEqual({ fieldManager: "hangar", force: "true" });
      expect(request.contentType).toBe(APPLY_PATCH);
      // The client's serializer neither drops nor alters a field of what we rendered.
      expect(request.body).toEqual(sent[i]);
    }
    // Discovery once per group/version, then cached; the token on every request.
    expect(discovery().map((r) => r.path)).toEqual([
      "/api/v1",
      "/apis/apps/v1",
      "/apis/autoscaling/v2",
    ]);
    expect(new Set(api.requests.map((r) => r.authorization))).toEqual(
      new Set([`Bearer ${api.token}`]),
    );
    expect(lines).toEqual([
      ...applied(),
      "Waiting for the rollout (up to 5s)",
      ...workloads().map((o) => `${describeObject(o)} is available`),
    ]);
    expect(lines).toContain(
      "Applied Deployment hangar-0196f1c2-0000-7000-8000-aabbccddeeff/support-agent",
    );
  });

  it("is idempotent: applying again patches the same objects", async () => {
    const driver = deployer();
    await driver.apply(objects);
    const stored = new Map(api.objects);
    await driver.apply(renderManifests(inputWith()));
    expect(writes()).toHaveLength(objects.length * 2);
    expect([...api.objects.keys()]).toEqual([...stored.keys()]);
  });

  it("fails naming the refused object and the API server's message, and stops there", async () => {
    const secret = find(objects, "Secret", "support-agent-db-auth");
    const message = 'Secret "support-agent-db-auth" is invalid: metadata.labels: Invalid value';
    api.failOn(pathOf(secret), 422, message);

    const error = await deployer()
      .apply(objects)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailure);
    expect((error as StepFailure).message).toBe(
      `Kubernetes refused ${describeObject(secret)}: ${message}`,
    );
    for (const value of SECRET_VALUES) expect((error as Error).message).not.toContain(value);
    expect(writes().at(-1)!.path).toBe(pathOf(secret));
    expect(writes()).toHaveLength(objects.indexOf(secret) + 1);
  });

  it("reports the HTTP status when the answer is not a Kubernetes Status", async () => {
    const [namespace, secret] = objects;
    api.failOn(pathOf(secret!), 502, "", "<html><body>Bad Gateway</body></html>");
    const error = await deployer()
      .apply([namespace!, secret!])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailure);
    expect((error as Error).message).toBe(
      `Kubernetes refused ${describeObject(secret!)}: HTTP 502`,
    );
  });

  it("reports a rejected token as the API server's message", async () => {
    const error = await deployer("wrong-token")
      .apply(objects)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailure);
    expect((error as Error).message).toBe(
      `Kubernetes refused ${describeObject(objects[0]!)}: Unauthorized`,
    );
    expect(writes()).toHaveLength(0);
  });

  it("reports an unreachable API server as a StepFailure", async () => {
    const gone = await startFakeKubeApi();
    const file = gone.kubeconfig();
    await gone.stop();
    const error = await kubernetesDeployer(loadKubeconfig(file), FAST)
      .apply(objects)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailure);
    expect((error as Error).message).toMatch(
      /^Kubernetes refused Namespace hangar-\S+: .*ECONNREFUSED/,
    );
  });
});

describe("the Kubernetes driver's rollout", () => {
  const server = () => find(objects, "Deployment", "support-agent");
  const failureOf = (promise: Promise<unknown>): Promise<StepFailure> =>
    promise.then(
      () => {
        throw new Error("expected the rollout to fail");
      },
      (e: unknown) => e as StepFailure,
    );

  it("waits until every Deployment and StatefulSet is available", async () => {
    api.setRollout("ready", { readyAfterReads: 3 });
    const { lines } = await deployer().apply(objects);
    expect(lines.slice(objects.length + 1).sort()).toEqual(
      workloads()
        .map((o) => `${describeObject(o)} is available`)
        .sort(),
    );
    const reads = api.requests.filter((r) => r.method === "GET" && r.path === pathOf(server()));
    expect(reads).toHaveLength(4);
  });

  it("fails at once with the image pull error, keeping what it applied in the log", async () => {
    const deployment = server() as V1Deployment;
    const image = deployment.spec!.template.spec!.containers[0]!.image;
    api.setRollout("image_pull_failure", { image });
    const error = await failureOf(deployer().apply(objects));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(
      /^Rollout failed: Deployment hangar-\S+\/support-agent\S*: image pull failed for container \S+ \(ImagePullBackOff\): Back-off pulling image "registry\.example\.com\/support-agent@sha256:(ab)+"$/,
    );
    expect(error.lines.slice(0, objects.length)).toEqual(applied());
  });

  it("fails at once on a crash loop with the container's exit and last words", async () => {
    api.setRollout("crash_loop");
    const error = await failureOf(deployer().apply(objects));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(
      /^Rollout failed: Deployment \S+: container \S+ is crash-looping \(exit code 1, Error\): /,
    );
    expect(error.message).toContain(CRASH_LOG);
    const logRead = api.requests.find((r) => r.path.endsWith("/log"))!;
    expect(logRead.query).toMatchObject({ previous: "true", tailLines: "5" });
  });

  it("fails at the timeout naming pods that cannot be scheduled", async () => {
    api.setRollout("unschedulable");
    const error = await failureOf(
      deployer(undefined, { timeoutMs: 300, pollMs: 20 }).apply(objects),
    );
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(
      new RegExp(
        `^Rollout did not finish within 0\\.3s: Deployment \\S+: pod cannot be scheduled \\(Unschedulable\\): ${UNSCHEDULABLE_MESSAGE}$`,
      ),
    );
  });

  it("fails at the timeout naming what was still missing", async () => {
    api.setRollout("ready", { readyAfterReads: 1_000_000 });
    const error = await failureOf(
      deployer(undefined, { timeoutMs: 200, pollMs: 20 }).apply(objects),
    );
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(
      /^Rollout did not finish within 0\.2s: Deployment \S+: 0 of \d+ updated replicas available$/,
    );
  });
});

describe("the Kubernetes driver's teardown", () => {
  it("deletes every object but the Namespace, in reverse order, tolerating missing ones", async () => {
    await deployer().apply(objects);
    const hpa = find(objects, "HorizontalPodAutoscaler", "support-agent-queue");
    api.objects.delete(pathOf(hpa));
    api.requests.length = 0;

    // What teardown gets in the engine: the manifests stored on the revisions, redacted.
    const { lines } = await deployer().teardown(redactManifests(objects));

    const kept = objects.filter((o) => o.kind !== "Namespace").reverse();
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual(
      kept.map((o) => `DELETE ${pathOf(o)}`),
    );
    for (const request of writes()) {
      expect(request.query).toEqual({ propagationPolicy: "Background" });
      expect(request.authorization).toBe(`Bearer ${api.token}`);
    }
    expect([...api.objects.keys()]).toEqual([pathOf(objects[0]!)]);
    expect(lines).toEqual(
      kept.map((o) =>
        o === hpa ? `${describeObject(o)} was already gone` : `Deleted ${describeObject(o)}`,
      ),
    );
  });

  it("fails on any other refusal, naming the object", async () => {
    await deployer().apply(objects);
    const server = find(objects, "Deployment", "support-agent");
    const message = 'deployments.apps "support-agent" is forbidden: cannot delete';
    api.failOn(pathOf(server), 403, message);
    const error = await deployer()
      .teardown(objects)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailure);
    expect((error as Error).message).toBe(
      `Kubernetes refused ${describeObject(server)}: ${message}`,
    );
  });
});

describe("driversFromEnv with HANGAR_KUBECONFIG", () => {
  it("deploys through the cluster the kubeconfig names", async () => {
    const drivers = await driversFromEnv({
      HANGAR_KUBECONFIG: api.kubeconfig(),
    });
    expect(drivers.deployer.name).toBe("kubernetes");
    await drivers.deployer.apply(objects.slice(0, 2));
    expect(writes().map((r) => r.path)).toEqual(objects.slice(0, 2).map(pathOf));
  });
});
