import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { V1Job, V1NetworkPolicy, V1Secret } from "@kubernetes/client-node";
import { x as extract } from "tar";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  inject,
  it,
  vi,
} from "vitest";
import { Readable } from "node:stream";
import { driversFromEnv, StepFailure } from "../../src/server/jobs/drivers";
import { loadKubeconfig } from "../../src/server/jobs/drivers/kubernetes";
import {
  kubernetesImageBuilder,
  NO_PUBLIC_URL,
} from "../../src/server/jobs/builder/images/kubernetes";
import { parseBuildEgress } from "../../src/server/outbound/build-egress";
import { systemLookup, type Lookup } from "../../src/server/outbound/resolve";
import { uploadPathOf, uploadStore } from "../../src/server/storage";
import { buildContextUrl } from "../../src/server/storage/build-context-url";
import { startFakeKubeApi, type FakeKubeApi } from "../../testing/fake-kube-api";
import { testIo } from "../helpers/build-io";
import { testDb } from "../helpers/fixtures";
import { BOUNDS, DIGEST, METADATA, NAMESPACE, TARGET } from "../helpers/kube-build";
import { sampleProject, tarGz } from "../helpers/tarball";

// The Kubernetes image builder end to end, beside the built server: the prepared folder is
// packed into the upload store, the build Job's pod fetches it once from Hangar's signed URL
// (here: the test, as the fake cluster's init container), and the context is gone once the
// build ends, whatever its outcome.

const baseUrl = inject("baseUrl");
const contextsDir = path.join(inject("testEnv").HANGAR_DATA_DIR!, "uploads", "build-contexts");
const USED = { detail: "This build context URL has been used already.", code: "conflict" };

let kube: FakeKubeApi;
let folder: string;
beforeAll(async () => {
  kube = await startFakeKubeApi();
});
afterAll(() => kube.stop());
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "kube-build-context-"));
  await mkdir(path.join(folder, "agent"));
  await writeFile(path.join(folder, "Dockerfile.hangar"), "FROM base\nCOPY . /deps/app\n");
  await writeFile(path.join(folder, ".dockerignore"), ".env\n");
  await writeFile(path.join(folder, "agent", "graph.py"), "graph = None\n");
  await symlink("agent/graph.py", path.join(folder, "graph.py"));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/** The cluster's registry by name (a Service's address); Hangar itself on loopback. */
const REGISTRY_ADDRESS = "10.96.0.12";
const resolve: Lookup = async (host) =>
  host === "registry.hangar.test"
    ? [{ address: REGISTRY_ADDRESS, family: 4 }]
    : host === "localhost"
      ? [{ address: "127.0.0.1", family: 4 }]
      : systemLookup(host);
const builder = ({
  publicUrl = baseUrl,
  namespace = NAMESPACE,
  egress = "public",
}: { publicUrl?: string; namespace?: string; egress?: string } = {}) =>
  kubernetesImageBuilder({
    kubeconfig: loadKubeconfig(kube.kubeconfig()),
    namespace,
    builderImage: "moby/buildkit:v0.25.2-rootless",
    fetchImage: "busybox:1.37",
    timeoutSeconds: 600,
    publicUrl,
    bounds: BOUNDS,
    egress: parseBuildEgress(egress),
    resolve,
    db: testDb,
    run: { pollMs: 20, drainMs: 10_000 },
  });
const request = { dockerfile: "Dockerfile.hangar", target: TARGET };
const until = <T>(read: () => T | undefined) =>
  vi.waitFor(
    () => {
      const value = read();
      if (value === undefined) throw new Error("not yet");
      return value;
    },
    { timeout: 15_000, interval: 20 },
  );

/** The newest build Job the fake cluster holds, and its Secret's context URL. */
async function runningBuild() {
  const job = await until(
    () =>
      [...kube.objects.values()].findLast(
        (o) => o.kind === "Job" && (o.spec as V1Job["spec"])!.suspend === false,
      ) as V1Job | undefined,
  );
  const secret = kube.objects.get(
    `/api/v1/namespaces/${NAMESPACE}/secrets/${job.metadata!.name}`,
  ) as V1Secret;
  const url = Buffer.from(secret.data!["context-url"]!, "base64").toString("utf8");
  const sha256 = job.spec!.template.spec!.initContainers![0]!.env![0]!.value!;
  return { name: job.metadata!.name!, url, sha256 };
}

const contextRows = () => testDb().buildContext.count();
const idOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;

describe("the Kubernetes builder's context", () => {
  it("is fetched once from Hangar's public URL by the build's pod, and goes after the build", async () => {
    kube.setBuildJob({ log: ["#1 [internal] load build definition from Dockerfile.hangar"] });
    const { io, logged } = testIo(TARGET);
    const build = builder().build({ contextDir: folder, ...request }, io);
    const { name, url, sha256 } = await runningBuild();
    expect(url).toMatch(
      new RegExp(
        `^${baseUrl}/v2/build-contexts/[0-9a-f-]{36}\\?expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    );
    expect(existsSync(path.join(contextsDir, `${idOf(url)}.tar.gz`))).toBe(true);

    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("application/gzip");
    const bytes = Buffer.from(await fetched.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sha256);
    const unpacked = await mkdtemp(path.join(tmpdir(), "kube-build-fetched-"));
    await writeFile(path.join(unpacked, "context.tar.gz"), bytes);
    await extract({ file: path.join(unpacked, "context.tar.gz"), cwd: unpacked });
    expect((await readdir(unpacked, { recursive: true })).sort()).toEqual([
      ".dockerignore",
      "Dockerfile.hangar",
      "agent",
      "agent/graph.py",
      "context.tar.gz",
      "graph.py",
    ]);
    expect(await readlink(path.join(unpacked, "graph.py"))).toBe("agent/graph.py");
    await rm(unpacked, { recursive: true, force: true });

    const again = await fetch(url);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(USED);

    kube.finishJob(name, { status: "succeeded", terminationMessage: METADATA });
    expect(await build).toEqual({ digest: DIGEST });
    expect(logged).toContain("#1 [internal] load build definition from Dockerfile.hangar");
    expect(logged[0]).toBe(
      `Building ${TARGET.registry}/${TARGET.repository}:${TARGET.tag} in Kubernetes (context sha256:${sha256})`,
    );
    // Dropped: the object, its row, so the URL now names nothing.
    expect(existsSync(path.join(contextsDir, `${idOf(url)}.tar.gz`))).toBe(false);
    expect(await contextRows()).toBe(0);
    expect((await fetch(url)).status).toBe(404);
  });

  it("refuses altered (403) and expired (403) URLs without using them up; unknown ones are 404", async () => {
    kube.setBuildJob({});
    const build = builder().build({ contextDir: folder, ...request }, testIo(TARGET).io);
    const { name, url } = await runningBuild();
    const id = idOf(url);
    const query = new URL(url).searchParams;
    const altered = url.replace(
      /signature=([0-9a-f])/,
      (_, c: string) => `signature=${c === "0" ? "1" : "0"}`,
    );
    const later = url.replace(
      `expires=${query.get("expires")}`,
      `expires=${Number(query.get("expires")) + 1}`,
    );
    for (const wrong of [
      altered,
      later,
      url.replace(/&signature=.*/, ""),
      `${baseUrl}/v2/build-contexts/${id}`,
    ]) {
      const response = await fetch(wrong);
      expect(response.status, wrong).toBe(403);
      expect(await response.json()).toEqual({
        detail: "The build context URL's signature is not valid.",
        code: "forbidden",
      });
    }
    const expired = await fetch(buildContextUrl(baseUrl, id, Math.floor(Date.now() / 1000) - 1));
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({
      detail: "The build context URL has expired.",
      code: "forbidden",
    });
    const unknownId = randomUUID();
    const unknown = await fetch(
      buildContextUrl(baseUrl, unknownId, Math.floor(Date.now() / 1000) + 60),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      detail: `Build context ${unknownId} not found.`,
      code: "not_found",
    });
    const notAnId = await fetch(`${baseUrl}/v2/build-contexts/not-a-uuid?expires=1&signature=00`);
    expect(notAnId.status).toBe(422);

    expect((await fetch(url)).status).toBe(200);
    kube.finishJob(name, { status: "succeeded", terminationMessage: METADATA });
    await build;
  });

  it("goes after a failed build and after an interrupted one", async () => {
    kube.setBuildJob({
      log: ["error: failed to solve: boom"],
      end: { status: "failed", exitCode: 1 },
    });
    const failed = await builder()
      .build({ contextDir: folder, ...request }, testIo(TARGET).io)
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StepFailure);
    expect((failed as Error).message).toBe("The build failed: failed to solve: boom");
    expect(await contextRows()).toBe(0);

    kube.setBuildJob({});
    const interrupt = new AbortController();
    const build = builder().build(
      { contextDir: folder, ...request },
      testIo(TARGET, interrupt.signal).io,
    );
    const { name, url } = await runningBuild();
    interrupt.abort(new Error("interrupted"));
    await expect(build).rejects.toThrow("interrupted");
    expect(await contextRows()).toBe(0);
    expect(existsSync(path.join(contextsDir, `${idOf(url)}.tar.gz`))).toBe(false);
    expect(kube.objects.has(`/apis/batch/v1/namespaces/${NAMESPACE}/jobs/${name}`)).toBe(false);
  });

  it("refuses to build without HANGAR_PUBLIC_URL: the pod could not fetch the context", async () => {
    const before = kube.requests.length;
    const refused = await kubernetesImageBuilder({
      kubeconfig: loadKubeconfig(kube.kubeconfig()),
      namespace: NAMESPACE,
      builderImage: "moby/buildkit:v0.25.2-rootless",
      fetchImage: "busybox:1.37",
      timeoutSeconds: 600,
      publicUrl: undefined,
      bounds: BOUNDS,
      egress: parseBuildEgress("public"),
      db: testDb,
    })
      .build({ contextDir: folder, ...request }, testIo(TARGET).io)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StepFailure);
    expect((refused as Error).message).toBe(NO_PUBLIC_URL);
    expect(kube.requests.length).toBe(before);
    expect(await contextRows()).toBe(0);
  });
});

describe("the build pods' NetworkPolicy", () => {
  const namespace = "policy-builds";
  const path = `/apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies`;
  const stored = () => kube.objects.get(`${path}/hangar-build-egress`) as V1NetworkPolicy;
  const policyWrites = () =>
    kube.requests.filter((r) => r.path.startsWith(path) && r.method !== "GET").map((r) => r.method);
  const dns = {
    to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } } }],
    ports: [
      { protocol: "UDP", port: 53 },
      { protocol: "TCP", port: 53 },
    ],
  };
  const tcp = (cidrs: string[], port?: number) => ({
    to: cidrs.map((cidr) => ({ ipBlock: { cidr } })),
    ports: [port === undefined ? { protocol: "TCP" } : { protocol: "TCP", port }],
  });
  /** Hangar's public URL (the context) and the registry: reachable under every rule. */
  const hangar = tcp(["127.0.0.1/32"], Number(new URL(baseUrl).port));
  const registry = tcp([`${REGISTRY_ADDRESS}/32`], 5000);
  const build = async (egress: string) => {
    kube.setBuildJob({ end: { status: "succeeded", terminationMessage: METADATA } });
    const { io, logged } = testIo(TARGET);
    expect(
      await builder({ namespace, egress }).build({ contextDir: folder, ...request }, io),
    ).toEqual({ digest: DIGEST });
    return logged;
  };

  it("is applied before each build's Job, selecting its pod; the same settings change nothing", async () => {
    const logged = await build("public");
    expect(logged).toContain(`Build pods' NetworkPolicy ${namespace}/hangar-build-egress: created`);
    const order = kube.requests
      .filter((r) => r.method === "POST" && r.path.includes(`/namespaces/${namespace}/`))
      .map((r) => r.path.split("/").at(-1));
    expect(order).toEqual(["networkpolicies", "jobs", "secrets"]);
    const job = kube.requests.findLast(
      (r) => r.method === "POST" && r.path.endsWith(`/namespaces/${namespace}/jobs`),
    )!.body as V1Job;
    expect(job.spec!.template.metadata!.labels).toMatchObject(
      stored().spec!.podSelector!.matchLabels!,
    );
    const [first, open, ...rest] = stored().spec!.egress!;
    expect(first).toEqual(dns);
    expect(open!.to!.map((peer) => peer.ipBlock!.cidr)).toEqual([
      "0.0.0.0/0",
      "::/0",
      "64:ff9b::/96",
    ]);
    expect(open!.to![0]!.ipBlock!.except).toContain("10.0.0.0/8");
    expect(rest).toHaveLength(2);
    expect(rest).toEqual(expect.arrayContaining([hangar, registry]));
    expect(stored().spec!.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(stored().spec!.ingress).toBeUndefined();

    expect(await build("public")).toContain(
      `Build pods' NetworkPolicy ${namespace}/hangar-build-egress: unchanged`,
    );
    expect(policyWrites()).toEqual(["POST"]);
  });

  it("is replaced when the settings change: `none`, then a private range, a port and `public`", async () => {
    expect(await build("none")).toContain(
      `Build pods' NetworkPolicy ${namespace}/hangar-build-egress: replaced`,
    );
    expect(policyWrites()).toEqual(["POST", "PUT"]);
    const closed = stored().spec!.egress!;
    expect(closed).toHaveLength(3);
    expect(closed).toEqual(expect.arrayContaining([dns, hangar, registry]));

    await build("10.20.0.0/16,192.168.7.10:3128,public");
    expect(policyWrites()).toEqual(["POST", "PUT", "PUT"]);
    const listed = stored().spec!.egress!;
    expect(listed).toHaveLength(6);
    expect(listed[1]!.to!.map((peer) => peer.ipBlock!.cidr)).toEqual([
      "0.0.0.0/0",
      "::/0",
      "64:ff9b::/96",
    ]);
    expect(listed).toEqual(
      expect.arrayContaining([
        dns,
        tcp(["10.20.0.0/16"]),
        tcp(["192.168.7.10/32"], 3128),
        hangar,
        registry,
      ]),
    );
  });

  it("is required: a build whose policy Kubernetes refuses starts no Job and drops its context", async () => {
    const unprivileged = "/apis/networking.k8s.io/v1/namespaces/other-builds/networkpolicies";
    const forbidden =
      'networkpolicies.networking.k8s.io "hangar-build-egress" is forbidden: User "hangar" cannot get resource "networkpolicies" in API group "networking.k8s.io" in the namespace "other-builds"';
    kube.failOn(`${unprivileged}/hangar-build-egress`, 403, forbidden);
    const jobsBefore = kube.requests.filter((r) => r.path.endsWith("/jobs")).length;
    const refused = await builder({ namespace: "other-builds" })
      .build({ contextDir: folder, ...request }, testIo(TARGET).io)
      .catch((e: unknown) => e);
    kube.recover(`${unprivileged}/hangar-build-egress`);
    expect(refused).toBeInstanceOf(StepFailure);
    expect((refused as Error).message).toBe(
      `Kubernetes refused the build pods' NetworkPolicy other-builds/hangar-build-egress: ${forbidden}`,
    );
    expect(kube.requests.filter((r) => r.path.endsWith("/jobs")).length).toBe(jobsBefore);
    expect(await contextRows()).toBe(0);
  });
});

describe("HANGAR_BUILDER=kubernetes", () => {
  it("builds an uploaded project in the configured namespace, with the configured images", async () => {
    const deploymentId = randomUUID();
    const objectPath = uploadPathOf(deploymentId, randomUUID());
    await uploadStore().put(objectPath, Readable.from(tarGz(sampleProject())), 1024 * 1024);
    const drivers = await driversFromEnv({
      HANGAR_KUBECONFIG: kube.kubeconfig(),
      HANGAR_BUILDER: "kubernetes",
      HANGAR_BUILD_NAMESPACE: "tenant-builds",
      HANGAR_BUILD_IMAGE: "registry.internal/buildkit:rootless",
      HANGAR_BUILD_FETCH_IMAGE: "registry.internal/busybox:stable",
      HANGAR_PUBLIC_URL: baseUrl,
      HANGAR_BUILD_CPUS: 1.5,
      HANGAR_BUILD_MEMORY: "1536Mi",
      HANGAR_BUILD_DISK: "8Gi",
      HANGAR_BUILD_EGRESS: "10.20.0.0/16,192.168.7.10:3128",
    });
    kube.setBuildJob({ end: { status: "succeeded", terminationMessage: METADATA } });
    // A registry the worker's own resolver knows: the policy names its address.
    const target = { ...TARGET, registry: "127.0.0.1:5000" };
    const built = await drivers.builder.build(
      {
        source: "internal_source",
        deployment_id: deploymentId,
        repo_url: null,
        repo_commit_sha: null,
        source_tarball_path: objectPath,
        graph_config_path: null,
        install_command: null,
        build_command: null,
      },
      testIo(target).io,
    );
    expect(built).toMatchObject({
      imageRef: `${target.registry}/${TARGET.repository}@${DIGEST}`,
      imageDigest: DIGEST,
    });
    const job = kube.requests.findLast((r) => r.method === "POST" && r.path.endsWith("/jobs"))!;
    expect(job.path).toBe("/apis/batch/v1/namespaces/tenant-builds/jobs");
    const pod = (job.body as V1Job).spec!.template.spec!;
    expect(pod.containers[0]!.image).toBe("registry.internal/buildkit:rootless");
    expect(pod.initContainers![0]!.image).toBe("registry.internal/busybox:stable");
    expect((job.body as V1Job).spec!.activeDeadlineSeconds).toBe(1800);
    expect(pod.containers[0]!.args).toContain("filename=Dockerfile.hangar");
    // The bound settings, as the pod's requests and limits.
    const bounds = { cpu: "1500m", memory: "1536Mi", "ephemeral-storage": "8Gi" };
    expect(pod.containers[0]!.resources).toEqual({ requests: bounds, limits: bounds });
    const fetchBounds = { cpu: "1", memory: "256Mi", "ephemeral-storage": "8Gi" };
    expect(pod.initContainers![0]!.resources).toEqual({
      requests: fetchBounds,
      limits: fetchBounds,
    });
    // HANGAR_BUILD_EGRESS, as the namespace's NetworkPolicy: no `public`, so the list only.
    const policy = kube.objects.get(
      "/apis/networking.k8s.io/v1/namespaces/tenant-builds/networkpolicies/hangar-build-egress",
    ) as V1NetworkPolicy;
    const rules = policy.spec!.egress!;
    expect(rules.flatMap((r) => r.to!.map((peer) => peer.ipBlock?.cidr))).not.toContain(
      "0.0.0.0/0",
    );
    expect(rules).toContainEqual({
      to: [{ ipBlock: { cidr: "10.20.0.0/16" } }],
      ports: [{ protocol: "TCP" }],
    });
    expect(rules).toContainEqual({
      to: [{ ipBlock: { cidr: "192.168.7.10/32" } }],
      ports: [{ protocol: "TCP", port: 3128 }],
    });
    expect(rules).toContainEqual({
      to: [{ ipBlock: { cidr: "127.0.0.1/32" } }],
      ports: [{ protocol: "TCP", port: 5000 }],
    });
    expect(
      rules.some(
        (r) =>
          r.ports![0]!.port === Number(new URL(baseUrl).port) &&
          r.to!.some((peer) => peer.ipBlock!.cidr === "127.0.0.1/32"),
      ),
    ).toBe(true);
    await uploadStore().remove(objectPath);
  });
});
