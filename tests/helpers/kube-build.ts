import { loadKubeconfig } from "../../src/server/jobs/drivers/kubernetes";
import type { BuildIo, ImageTarget } from "../../src/server/jobs/drivers/types";
import type { BuildBounds } from "../../src/server/jobs/builder/bounds";
import type { BuildJobSpec } from "../../src/server/jobs/builder/images/build-job";
import { runBuildJob } from "../../src/server/jobs/builder/images/build-job-run";
import type { FakeKubeApi } from "../../testing/fake-kube-api";

// The Kubernetes image builder's Job against the fake Kubernetes API (testing/fake-kube-api.ts).

export const PUSH_TOKEN = "hgp_build_push_token_very_secret";
export const TARGET: ImageTarget = {
  registry: "registry.hangar.test:5000",
  repository: "0196f1c2-0000-7000-8000-aabbccddeeff/support-agent",
  workspace: "0196f1c2-0000-7000-8000-aabbccddeeff",
  tag: "rev-3",
  insecure: false,
  credentials: { username: "oauth2accesstoken", password: PUSH_TOKEN },
};
export const CONTEXT_SIGNATURE = "c0ffee".repeat(10) + "abcd";
export const CONTEXT_URL = `https://hangar.example/v2/build-contexts/0196f1c2-1111-7000-8000-aabbccddeeff?expires=1900000000&signature=${CONTEXT_SIGNATURE}`;
export const DIGEST = `sha256:${"ab".repeat(32)}`;
/** What buildctl's --metadata-file holds after a push (the builder's termination message). */
export const METADATA = JSON.stringify({
  "containerimage.config.digest": `sha256:${"cd".repeat(32)}`,
  "containerimage.digest": DIGEST,
  "image.name": `${TARGET.registry}/${TARGET.repository}:${TARGET.tag}`,
});

export const JOB_ID = "a1b2c3d4e5";
export const JOB_NAME = `hangar-build-${JOB_ID}`;
export const NAMESPACE = "hangar-builds";
export const JOBS_PATH = `/apis/batch/v1/namespaces/${NAMESPACE}/jobs`;
export const SECRETS_PATH = `/api/v1/namespaces/${NAMESPACE}/secrets`;

/** The settings' defaults (HANGAR_BUILD_CPUS, _MEMORY, _DISK, _PROCESSES). */
export const BOUNDS: BuildBounds = {
  cpus: 2,
  memory: "4Gi",
  memoryBytes: 4 * 2 ** 30,
  disk: "20Gi",
  diskBytes: 20 * 2 ** 30,
  processes: 1024,
};

export const specWith = (over: Partial<BuildJobSpec> = {}): BuildJobSpec => ({
  id: JOB_ID,
  namespace: NAMESPACE,
  builderImage: "moby/buildkit:v0.25.2-rootless",
  fetchImage: "busybox:1.37",
  timeoutSeconds: 900,
  contextSha256: "f0".repeat(32),
  dockerfile: "Dockerfile.hangar",
  target: TARGET,
  bounds: BOUNDS,
  ...over,
});

export const runJob = (kube: FakeKubeApi, io: BuildIo, spec = specWith()) =>
  runBuildJob(loadKubeconfig(kube.kubeconfig()), spec, CONTEXT_URL, io, {
    pollMs: 10,
    drainMs: 10_000,
  });

/** The requests that changed something, as `METHOD path`. */
export const writesTo = (kube: FakeKubeApi) =>
  kube.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

export const deleted = (kube: FakeKubeApi) =>
  kube.requests.filter((r) => r.method === "DELETE" && r.path === `${JOBS_PATH}/${JOB_NAME}`);
