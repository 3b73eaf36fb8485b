import type { V1Job, V1Secret } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StepFailure } from "../../../src/server/jobs/drivers";
import { MERGE_PATCH, startFakeKubeApi, type FakeKubeApi } from "../../../testing/fake-kube-api";
import { testIo } from "../../helpers/build-io";
import {
  BOUNDS,
  CONTEXT_SIGNATURE,
  CONTEXT_URL,
  deleted,
  DIGEST,
  JOB_NAME,
  JOBS_PATH,
  METADATA,
  NAMESPACE,
  PUSH_TOKEN,
  runJob,
  SECRETS_PATH,
  specWith,
  TARGET,
  writesTo,
} from "../../helpers/kube-build";

// The objects of one Kubernetes build as the API server receives them, and their lifetime: the
// Job starts only once its Secret exists, and goes (with its pod and Secret) when it ends.

process.env.HANGAR_ENCRYPTION_KEY ??= "0".repeat(64);

let kube: FakeKubeApi;
beforeEach(async () => {
  kube = await startFakeKubeApi();
  kube.setBuildJob({
    log: ["#1 DONE 0.0s"],
    end: { status: "succeeded", terminationMessage: METADATA },
  });
});
afterEach(() => kube.stop());

const sent = <T>(method: string, path: string) =>
  kube.requests.find((r) => r.method === method && r.path === path)?.body as T;
const decoded = (secret: V1Secret, key: string) =>
  Buffer.from(secret.data![key]!, "base64").toString("utf8");

describe("a Kubernetes build's Job", () => {
  it("creates the Job suspended, then its Secret, starts it, answers the digest, and deletes it", async () => {
    const { io } = testIo(TARGET);
    expect(await runJob(kube, io)).toEqual({ digest: DIGEST });

    expect(writesTo(kube)).toEqual([
      `POST ${JOBS_PATH}`,
      `POST ${SECRETS_PATH}`,
      `PATCH ${JOBS_PATH}/${JOB_NAME}`,
      `DELETE ${JOBS_PATH}/${JOB_NAME}`,
    ]);
    const patch = kube.requests.find((r) => r.method === "PATCH")!;
    expect(patch.contentType).toBe(MERGE_PATCH);
    expect(patch.body).toEqual({ spec: { suspend: false } });
    // Background: the garbage collector takes the pod and the Secret too (a Job's default
    // would orphan them).
    expect(deleted(kube)[0]!.query.propagationPolicy).toBe("Background");
    expect([...kube.objects.keys()]).toEqual([]);
  });

  it("runs BuildKit rootless and daemonless on the fetched context, within the deadline", async () => {
    await runJob(kube, testIo(TARGET).io);
    const job = sent<V1Job>("POST", JOBS_PATH);
    expect(job.metadata).toMatchObject({
      name: JOB_NAME,
      namespace: NAMESPACE,
      labels: {
        "app.kubernetes.io/managed-by": "hangar",
        "app.kubernetes.io/component": "image-build",
        "hangar.dev/build-id": "a1b2c3d4e5",
      },
    });
    expect(job.spec).toMatchObject({
      suspend: true,
      backoffLimit: 0,
      activeDeadlineSeconds: 900,
      ttlSecondsAfterFinished: 600,
    });
    const pod = job.spec!.template.spec!;
    expect(pod).toMatchObject({
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 },
    });
    const [builder] = pod.containers;
    expect(builder).toMatchObject({
      name: "build",
      image: "moby/buildkit:v0.25.2-rootless",
      command: ["buildctl-daemonless.sh"],
      env: [
        { name: "BUILDKITD_FLAGS", value: "--oci-worker-no-process-sandbox" },
        { name: "DOCKER_CONFIG", value: "/run/hangar/build" },
      ],
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        seccompProfile: { type: "Unconfined" },
        appArmorProfile: { type: "Unconfined" },
      },
    });
    expect(builder!.securityContext!.privileged).toBeUndefined();
    expect(builder!.args).toEqual([
      "build",
      "--progress=plain",
      "--frontend=dockerfile.v0",
      "--local",
      "context=/workspace",
      "--local",
      "dockerfile=/workspace",
      "--opt",
      "filename=Dockerfile.hangar",
      "--output",
      `type=image,name=${TARGET.registry}/${TARGET.repository}:rev-3,push=true`,
      "--metadata-file=/dev/termination-log",
    ]);
    expect(builder!.volumeMounts).toEqual([
      { name: "workspace", mountPath: "/workspace", readOnly: true },
      { name: "buildkit", mountPath: "/home/user/.local/share/buildkit" },
      { name: "registry", mountPath: "/run/hangar/build", readOnly: true },
    ]);

    const [fetch] = pod.initContainers!;
    expect(fetch).toMatchObject({
      name: "fetch-context",
      image: "busybox:1.37",
      command: [
        "sh",
        "-c",
        expect.stringContaining(
          'wget -q -O /download/context.tar.gz "$(cat /run/hangar/context/url)"',
        ),
      ],
      env: [{ name: "CONTEXT_SHA256", value: "f0".repeat(32) }],
      securityContext: {
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      },
    });
    expect(fetch!.command![2]).toContain("sha256sum -c -");
    expect(fetch!.volumeMounts).toEqual([
      { name: "workspace", mountPath: "/workspace" },
      { name: "download", mountPath: "/download" },
      { name: "context-url", mountPath: "/run/hangar/context", readOnly: true },
    ]);
    expect(pod.volumes).toEqual([
      { name: "workspace", emptyDir: {} },
      { name: "download", emptyDir: {} },
      { name: "buildkit", emptyDir: {} },
      {
        name: "context-url",
        secret: { secretName: JOB_NAME, items: [{ key: "context-url", path: "url" }] },
      },
      {
        name: "registry",
        secret: {
          secretName: JOB_NAME,
          items: [{ key: ".dockerconfigjson", path: "config.json" }],
        },
      },
    ]);
  });

  it("requests and is limited to the build bounds: CPUs, memory and disk (ephemeral storage)", async () => {
    await runJob(kube, testIo(TARGET).io);
    const pod = sent<V1Job>("POST", JOBS_PATH).spec!.template.spec!;
    const build = { cpu: "2", memory: "4Gi", "ephemeral-storage": "20Gi" };
    expect(pod.containers[0]!.resources).toEqual({ requests: build, limits: build });
    // The fetch needs one CPU and little memory; its disk is the build's (the same emptyDirs).
    const fetch = { cpu: "1", memory: "256Mi", "ephemeral-storage": "20Gi" };
    expect(pod.initContainers![0]!.resources).toEqual({ requests: fetch, limits: fetch });
  });

  it("writes fractional CPUs in millicores and keeps the fetch within smaller bounds", async () => {
    const bounds = {
      ...BOUNDS,
      cpus: 0.5,
      memory: "192Mi",
      memoryBytes: 192 * 2 ** 20,
      disk: "6G",
      diskBytes: 6e9,
    };
    await runJob(kube, testIo(TARGET).io, specWith({ bounds }));
    const pod = sent<V1Job>("POST", JOBS_PATH).spec!.template.spec!;
    const all = { cpu: "500m", memory: "192Mi", "ephemeral-storage": "6G" };
    expect(pod.containers[0]!.resources).toEqual({ requests: all, limits: all });
    expect(pod.initContainers![0]!.resources).toEqual({ requests: all, limits: all });
  });

  it("keeps the push token and the context URL in a Secret the Job owns, never in the Job", async () => {
    await runJob(kube, testIo(TARGET).io);
    const job = sent<V1Job>("POST", JOBS_PATH);
    const text = JSON.stringify(job);
    for (const secret of [PUSH_TOKEN, CONTEXT_SIGNATURE, CONTEXT_URL, "auths"])
      expect(text).not.toContain(secret);

    const secret = sent<V1Secret>("POST", SECRETS_PATH);
    expect(secret).toMatchObject({
      type: "kubernetes.io/dockerconfigjson",
      metadata: {
        name: JOB_NAME,
        namespace: NAMESPACE,
        labels: { "hangar.dev/build-id": "a1b2c3d4e5" },
        ownerReferences: [{ apiVersion: "batch/v1", kind: "Job", name: JOB_NAME }],
      },
    });
    // The owner is the Job the API server created (its uid), so the collector finds it.
    expect(secret.metadata!.ownerReferences![0]!.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(secret.data!).sort()).toEqual([".dockerconfigjson", "context-url"]);
    expect(decoded(secret, "context-url")).toBe(CONTEXT_URL);
    expect(JSON.parse(decoded(secret, ".dockerconfigjson"))).toEqual({
      auths: {
        [TARGET.registry]: {
          username: "oauth2accesstoken",
          password: PUSH_TOKEN,
          auth: Buffer.from(`oauth2accesstoken:${PUSH_TOKEN}`).toString("base64"),
        },
      },
    });
  });

  it("pushes over plain HTTP, and pulls so, only when the target says the registry is insecure", async () => {
    const insecure = { ...TARGET, registry: "127.0.0.1:5000", insecure: true };
    await runJob(kube, testIo(insecure).io, specWith({ target: insecure }));
    const builder = sent<V1Job>("POST", JOBS_PATH).spec!.template.spec!.containers[0]!;
    expect(builder.args).toContain(
      `type=image,name=127.0.0.1:5000/${TARGET.repository}:rev-3,push=true,registry.insecure=true`,
    );
    expect(builder.env![0]).toEqual({
      name: "BUILDKITD_FLAGS",
      value: "--oci-worker-no-process-sandbox --config=/run/hangar/build/buildkitd.toml",
    });
    const secret = sent<V1Secret>("POST", SECRETS_PATH);
    expect(decoded(secret, "buildkitd.toml")).toBe(
      '[registry."127.0.0.1:5000"]\n  http = true\n  insecure = true\n',
    );
  });

  it("fails naming what Kubernetes refused; a Job made before the refusal is deleted", async () => {
    kube.failOn(
      JOBS_PATH,
      403,
      'jobs.batch is forbidden: User "hangar" cannot create resource "jobs"',
    );
    const refused = await runJob(kube, testIo(TARGET).io).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StepFailure);
    expect((refused as Error).message).toBe(
      `Kubernetes refused the build Job ${NAMESPACE}/${JOB_NAME}: jobs.batch is forbidden: User "hangar" cannot create resource "jobs"`,
    );

    await kube.stop();
    kube = await startFakeKubeApi();
    kube.failOn(SECRETS_PATH, 403, "secrets is forbidden");
    const noSecret = await runJob(kube, testIo(TARGET).io).catch((e: unknown) => e);
    expect((noSecret as Error).message).toBe(
      `Kubernetes refused the build Secret ${NAMESPACE}/${JOB_NAME}: secrets is forbidden`,
    );
    expect(deleted(kube)).toHaveLength(1);
    expect([...kube.objects.keys()]).toEqual([]);
  });
});
