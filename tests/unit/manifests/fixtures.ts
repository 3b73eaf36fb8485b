import { Namespace, Secret, Service } from "kubernetes-models/v1";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import type { V1Container, V1Deployment, V1Secret } from "@kubernetes/client-node";
import type { KubernetesObject, RenderInput } from "../../../src/server/jobs/manifests";
import { resourceSpec, type ResourceSpec } from "../../../src/schemas/resource-spec";

const sidecarContainer = {
  name: "log-shipper",
  image: "fluent/fluent-bit:3.0",
  imagePullPolicy: "IfNotPresent",
  workingDir: "/fluent-bit",
  restartPolicy: null,
  command: ["/fluent-bit/bin/fluent-bit"],
  args: ["-c", "/fluent-bit/etc/fluent-bit.conf"],
  env: [
    { name: "LOG_LEVEL", value: "info", valueFrom: null },
    { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
  ],
  envFrom: [{ configMapRef: { name: "shipper-config" } }],
  resources: { limits: { cpu: "200m", memory: "128Mi" }, requests: { cpu: "100m" } },
  volumeMounts: [{ name: "config", mountPath: "/fluent-bit/etc", readOnly: true }],
  securityContext: { runAsNonRoot: true, runAsUser: 1000 },
};

/** A resource spec using every field of spec 2.6, valid under our schema. */
export const fullSpec: ResourceSpec = resourceSpec.parse({
  min_scale: 2,
  max_scale: 5,
  cpu: 0.5,
  cpu_limit: 1.5,
  memory_mb: 512,
  memory_limit_mb: 1536,
  queue_min_scale: 1,
  queue_max_scale: 4,
  queue_cpu: 1,
  queue_cpu_limit: 2,
  queue_memory_mb: 1024,
  queue_memory_limit_mb: 2048,
  orchestrator_cpu: 0.3,
  orchestrator_cpu_limit: 0.6,
  orchestrator_memory_mb: 256,
  orchestrator_memory_limit_mb: 384,
  orchestrator_min_scale: 1,
  orchestrator_max_scale: 3,
  executor_cpu: 2,
  executor_cpu_limit: 4,
  executor_memory_mb: 2048,
  executor_memory_limit_mb: 4096,
  redis_cpu: 0.2,
  redis_cpu_limit: 0.4,
  redis_memory_mb: 256,
  redis_memory_limit_mb: 300,
  db_cpu: 1.2,
  db_cpu_limit: 2.4,
  db_memory_mb: 2048,
  db_memory_limit_mb: 3000,
  db_storage_gi: 25,
  db_max_connections: 321,
  labels: { team: "agents", "app.kubernetes.io/managed-by": "someone-else" },
  annotations: { "prometheus.io/scrape": "true", owner: "ops@example.com" },
  service_account_name: "agent-runner",
  image_pull_secrets: [{ name: "registry-a" }, { name: "registry-b" }],
  volumes: [
    { name: "config", configMap: { name: "agent-config", defaultMode: 420 } },
    { name: "creds", secret: { secretName: "agent-creds", optional: false } },
    { name: "scratch", emptyDir: { medium: "Memory", sizeLimit: "64Mi" } },
    { name: "cache", persistentVolumeClaim: { claimName: "agent-cache", readOnly: false } },
    { name: "shared", nfs: { server: "nfs.example.com", path: "/exports/agents" } },
    { name: "bundle", projected: { sources: [{ configMap: { name: "agent-config" } }] } },
    {
      name: "podinfo",
      downwardAPI: { items: [{ path: "labels", fieldRef: { fieldPath: "metadata.labels" } }] },
    },
    { name: "vault", csi: { driver: "secrets-store.csi.k8s.io", readOnly: true } },
  ],
  volume_mounts: [
    {
      name: "config",
      mountPath: "/etc/agent",
      subPath: "agent.yaml",
      mountPropagation: "None",
      subPathExpr: null,
      readOnly: true,
    },
    { name: "scratch", mountPath: "/scratch", subPathExpr: "$(POD_NAME)", readOnly: false },
  ],
  init_containers: [
    {
      name: "migrate",
      image: "example.com/agent-migrate:1.0",
      command: ["migrate"],
      args: ["--up"],
      restartPolicy: "Always",
      volumeMounts: [{ name: "creds", mountPath: "/creds" }],
    },
  ],
  sidecars: [sidecarContainer],
});

export function inputWith(overrides: Partial<RenderInput["revision"]> = {}): RenderInput {
  return {
    deployment: {
      id: "0196f1c2-7a3b-7c4d-8e5f-112233445566",
      name: "support-agent",
      workspaceId: "0196f1c2-0000-7000-8000-aabbccddeeff",
      deploymentType: "prod",
    },
    revision: {
      id: "0196f1c2-9999-7000-8000-000000000003",
      number: 3,
      imageRef: "registry.example.com/support-agent@sha256:" + "ab".repeat(32),
      sourceConfig: { resource_spec: fullSpec, listener_config: null },
      secrets: [
        { name: "OPENAI_API_KEY", value: "sk-live-very-secret" },
        { name: "ANOTHER_TOKEN", value: "tok-123" },
      ],
      secretReferences: [{ name: "DB_READONLY_URL", secret_name: "shared-db", secret_key: "url" }],
      ...overrides,
    },
    databasePassword: "p@ss/word",
  };
}

const models: Record<string, new (data: never) => { validate(): void }> = {
  Namespace,
  Secret,
  Service,
  Deployment,
  StatefulSet,
  HorizontalPodAutoscaler,
};

/** Validates against the Kubernetes schema of its kind; throws on an unknown kind. */
export function validate(object: KubernetesObject): void {
  const Model = models[object.kind ?? ""];
  if (!Model) throw new Error(`No model for kind ${object.kind}`);
  new Model(object as never).validate();
}

export function find<T extends KubernetesObject>(
  objects: KubernetesObject[],
  kind: string,
  name: string,
): T {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found)
    throw new Error(
      `No ${kind} ${name} in ${objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(", ")}`,
    );
  return found as T;
}

export function mainContainer(deployment: V1Deployment): V1Container {
  return deployment.spec!.template.spec!.containers[0]!;
}

export const stringDataOf = (secret: V1Secret) => secret.stringData ?? {};
