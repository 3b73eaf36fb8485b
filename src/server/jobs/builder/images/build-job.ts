import type { V1Job, V1ResourceRequirements, V1Secret } from "@kubernetes/client-node";
import type { ImageTarget } from "../../drivers/types";
import { MANAGED_BY } from "../../manifests/names-and-labels";
import type { BuildBounds } from "../bounds";

// The objects of one Kubernetes build: a Job running BuildKit rootless and daemonless
// (buildctl-daemonless.sh) on the context its init container fetched, and a Secret with what
// must not appear in the Job (the context's URL, the push credentials), owned by the Job so that
// deleting the Job deletes it. The Job starts suspended, until its Secret exists. Its containers
// request and are limited to the build bounds (HANGAR_BUILD_CPUS, _MEMORY, _DISK).

export const BUILD_LABEL = "hangar.dev/build-id";
export const BUILDER_CONTAINER = "build";
export const FETCH_CONTAINER = "fetch-context";
/** How long a finished Job the worker could not delete (it died) stays in the namespace. */
const FINISHED_JOB_TTL_SECONDS = 600;
/** The rootless image's user (moby/buildkit:*-rootless runs as uid 1000, home /home/user). */
const BUILD_USER = 1000;

/** Fetching and unpacking (wget, gunzip, tar) needs at most one CPU and little memory. */
const FETCH_CPUS = 1;
const FETCH_MEMORY = "256Mi";
const FETCH_MEMORY_BYTES = 256 * 2 ** 20;

const WORKSPACE = "/workspace";
const CONTEXT_SECRET_DIR = "/run/hangar/context";
const BUILD_SECRET_DIR = "/run/hangar/build";

export interface BuildJobSpec {
  /** Random, DNS-safe: names the Job and its Secret `hangar-build-<id>`. */
  id: string;
  namespace: string;
  builderImage: string;
  fetchImage: string;
  timeoutSeconds: number;
  /** Hex SHA-256 of the packed context: the pod refuses anything else. */
  contextSha256: string;
  /** The Dockerfile's name inside the context. */
  dockerfile: string;
  target: ImageTarget;
  /** What the build may use (HANGAR_BUILD_CPUS, _MEMORY, _DISK). */
  bounds: BuildBounds;
}

export const buildJobName = (id: string) => `hangar-build-${id}`;
export const imageOf = (target: ImageTarget) =>
  `${target.registry}/${target.repository}:${target.tag}`;

/** Labels every build pod carries: the build pods' NetworkPolicy selects them. */
export const BUILD_POD_LABELS = {
  "app.kubernetes.io/managed-by": MANAGED_BY,
  "app.kubernetes.io/component": "image-build",
};

const labelsOf = (spec: BuildJobSpec) => ({ ...BUILD_POD_LABELS, [BUILD_LABEL]: spec.id });

/** A CPU quantity: whole CPUs as a number, a fraction in millicores ("500m"). */
const cpuQuantity = (cpus: number) =>
  Number.isInteger(cpus) ? String(cpus) : `${Math.round(cpus * 1000)}m`;

/**
 * Requests equal to limits, so the pod is Guaranteed (the last a node evicts) and a node takes it
 * only with the room it may use. Ephemeral storage bounds the pod's emptyDirs (the context,
 * BuildKit's state and layers) with its logs: past it, the kubelet evicts the pod.
 */
function resourcesOf(cpus: number, memory: string, disk: string): V1ResourceRequirements {
  const bounds = { cpu: cpuQuantity(cpus), memory, "ephemeral-storage": disk };
  return { requests: bounds, limits: { ...bounds } };
}

// Download, check, unpack; the URL is read from the Secret so it never shows in the pod spec.
const FETCH_SCRIPT = [
  "set -eu",
  `wget -q -O /download/context.tar.gz "$(cat ${CONTEXT_SECRET_DIR}/url)"`,
  'echo "$CONTEXT_SHA256  /download/context.tar.gz" | sha256sum -c -',
  `tar -xzf /download/context.tar.gz -C ${WORKSPACE}`,
  "rm /download/context.tar.gz",
].join("\n");

function buildctlArgs(spec: BuildJobSpec): string[] {
  const output = [
    "type=image",
    `name=${imageOf(spec.target)}`,
    "push=true",
    ...(spec.target.insecure ? ["registry.insecure=true"] : []),
  ].join(",");
  return [
    "build",
    "--progress=plain",
    "--frontend=dockerfile.v0",
    "--local",
    `context=${WORKSPACE}`,
    "--local",
    `dockerfile=${WORKSPACE}`,
    "--opt",
    `filename=${spec.dockerfile}`,
    "--output",
    output,
    // Read back from the pod's status, which the build's own steps cannot write to.
    "--metadata-file=/dev/termination-log",
  ];
}

/** BuildKit's configuration for a plain-HTTP registry (pulls of a base image included). */
export function buildkitdConfig(registry: string): string {
  return `[registry."${registry}"]\n  http = true\n  insecure = true\n`;
}

export function buildJob(spec: BuildJobSpec): V1Job {
  const daemonFlags = [
    // Rootless BuildKit in a pod without a privileged /proc: steps share the pod's PID namespace.
    "--oci-worker-no-process-sandbox",
    ...(spec.target.insecure ? [`--config=${BUILD_SECRET_DIR}/buildkitd.toml`] : []),
  ].join(" ");
  const restricted = {
    runAsNonRoot: true,
    runAsUser: BUILD_USER,
    runAsGroup: BUILD_USER,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ["ALL"] },
    seccompProfile: { type: "RuntimeDefault" },
  };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: buildJobName(spec.id),
      namespace: spec.namespace,
      labels: labelsOf(spec),
      annotations: { "hangar.dev/image": imageOf(spec.target) },
    },
    spec: {
      suspend: true,
      backoffLimit: 0,
      activeDeadlineSeconds: spec.timeoutSeconds,
      ttlSecondsAfterFinished: FINISHED_JOB_TTL_SECONDS,
      template: {
        metadata: { labels: labelsOf(spec) },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: BUILD_USER,
            runAsGroup: BUILD_USER,
          },
          initContainers: [
            {
              name: FETCH_CONTAINER,
              image: spec.fetchImage,
              command: ["sh", "-c", FETCH_SCRIPT],
              env: [{ name: "CONTEXT_SHA256", value: spec.contextSha256 }],
              securityContext: restricted,
              // A pod's share is the larger of its init containers' and the sum of the others':
              // the fetch stays within the build's bounds, so it asks for nothing more.
              resources: resourcesOf(
                Math.min(spec.bounds.cpus, FETCH_CPUS),
                spec.bounds.memoryBytes < FETCH_MEMORY_BYTES ? spec.bounds.memory : FETCH_MEMORY,
                spec.bounds.disk,
              ),
              volumeMounts: [
                { name: "workspace", mountPath: WORKSPACE },
                { name: "download", mountPath: "/download" },
                { name: "context-url", mountPath: CONTEXT_SECRET_DIR, readOnly: true },
              ],
            },
          ],
          containers: [
            {
              name: BUILDER_CONTAINER,
              image: spec.builderImage,
              command: ["buildctl-daemonless.sh"],
              args: buildctlArgs(spec),
              env: [
                { name: "BUILDKITD_FLAGS", value: daemonFlags },
                { name: "DOCKER_CONFIG", value: BUILD_SECRET_DIR },
              ],
              // RootlessKit needs user namespaces and mounts, which the default profiles forbid.
              securityContext: {
                runAsNonRoot: true,
                runAsUser: BUILD_USER,
                runAsGroup: BUILD_USER,
                seccompProfile: { type: "Unconfined" },
                appArmorProfile: { type: "Unconfined" },
              },
              resources: resourcesOf(spec.bounds.cpus, spec.bounds.memory, spec.bounds.disk),
              volumeMounts: [
                { name: "workspace", mountPath: WORKSPACE, readOnly: true },
                { name: "buildkit", mountPath: "/home/user/.local/share/buildkit" },
                { name: "registry", mountPath: BUILD_SECRET_DIR, readOnly: true },
              ],
            },
          ],
          volumes: [
            { name: "workspace", emptyDir: {} },
            { name: "download", emptyDir: {} },
            { name: "buildkit", emptyDir: {} },
            {
              name: "context-url",
              secret: {
                secretName: buildJobName(spec.id),
                items: [{ key: "context-url", path: "url" }],
              },
            },
            {
              name: "registry",
              secret: {
                secretName: buildJobName(spec.id),
                items: [
                  { key: ".dockerconfigjson", path: "config.json" },
                  ...(spec.target.insecure
                    ? [{ key: "buildkitd.toml", path: "buildkitd.toml" }]
                    : []),
                ],
              },
            },
          ],
        },
      },
    },
  };
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** The push credentials (a docker config) and the context's URL, owned by the Job (`uid`). */
export function buildSecret(spec: BuildJobSpec, contextUrl: string, jobUid: string): V1Secret {
  const { registry, credentials } = spec.target;
  const auth = base64(`${credentials.username}:${credentials.password}`);
  const dockerConfig = JSON.stringify({
    auths: { [registry]: { username: credentials.username, password: credentials.password, auth } },
  });
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "kubernetes.io/dockerconfigjson",
    metadata: {
      name: buildJobName(spec.id),
      namespace: spec.namespace,
      labels: labelsOf(spec),
      ownerReferences: [
        { apiVersion: "batch/v1", kind: "Job", name: buildJobName(spec.id), uid: jobUid },
      ],
    },
    data: {
      ".dockerconfigjson": base64(dockerConfig),
      "context-url": base64(contextUrl),
      ...(spec.target.insecure ? { "buildkitd.toml": base64(buildkitdConfig(registry)) } : {}),
    },
  };
}
