import type {
  V1Deployment,
  V1StatefulSet,
  V2HorizontalPodAutoscaler,
} from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { renderManifests } from "../../../src/server/jobs/manifests";
import { find, inputWith, mainContainer } from "./fixtures";

const objects = renderManifests(inputWith());
const deployment = (name: string) => find<V1Deployment>(objects, "Deployment", name);
const hpa = (name: string) =>
  find<V2HorizontalPodAutoscaler>(objects, "HorizontalPodAutoscaler", name);
const db = find<V1StatefulSet>(objects, "StatefulSet", "support-agent-db");

describe("the spec's numbers are kept exactly", () => {
  it("server: requests, limits, scales", () => {
    expect(mainContainer(deployment("support-agent")).resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1500m", memory: "1536Mi" },
    });
    expect(hpa("support-agent").spec).toMatchObject({ minReplicas: 2, maxReplicas: 5 });
    expect(hpa("support-agent").spec!.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: "support-agent",
    });
    // Under an autoscaler the Deployment leaves replicas to it.
    expect(deployment("support-agent").spec!.replicas).toBeUndefined();
  });

  it("queue, orchestrator and executor", () => {
    expect(mainContainer(deployment("support-agent-queue")).resources).toEqual({
      requests: { cpu: "1000m", memory: "1024Mi" },
      limits: { cpu: "2000m", memory: "2048Mi" },
    });
    expect(hpa("support-agent-queue").spec).toMatchObject({ minReplicas: 1, maxReplicas: 4 });
    expect(mainContainer(deployment("support-agent-orchestrator")).resources).toEqual({
      requests: { cpu: "300m", memory: "256Mi" },
      limits: { cpu: "600m", memory: "384Mi" },
    });
    expect(hpa("support-agent-orchestrator").spec).toMatchObject({
      minReplicas: 1,
      maxReplicas: 3,
    });
    const executor = deployment("support-agent-executor");
    expect(executor.spec!.replicas).toBe(1);
    expect(mainContainer(executor).resources).toEqual({
      requests: { cpu: "2000m", memory: "2048Mi" },
      limits: { cpu: "4000m", memory: "4096Mi" },
    });
  });

  it("cache: Redis resources, one replica, Service on 6379", () => {
    const redis = deployment("support-agent-redis");
    expect(redis.spec!.replicas).toBe(1);
    expect(mainContainer(redis)).toMatchObject({
      image: "redis:7-alpine",
      resources: {
        requests: { cpu: "200m", memory: "256Mi" },
        limits: { cpu: "400m", memory: "300Mi" },
      },
    });
    const service = find(objects, "Service", "support-agent-redis") as { spec: { ports: unknown } };
    expect(service.spec.ports).toEqual([
      { name: "redis", port: 6379, targetPort: 6379, protocol: "TCP" },
    ]);
  });

  it("database: resources, storage, max_connections", () => {
    const postgres = db.spec!.template.spec!.containers[0]!;
    expect(postgres.image).toBe("postgres:16-alpine");
    expect(postgres.resources).toEqual({
      requests: { cpu: "1200m", memory: "2048Mi" },
      limits: { cpu: "2400m", memory: "3000Mi" },
    });
    expect(postgres.args).toEqual(["-c", "max_connections=321"]);
    expect(db.spec!.volumeClaimTemplates![0]!.spec!.resources!.requests).toEqual({
      storage: "25Gi",
    });
    expect(db.spec!.serviceName).toBe("support-agent-db");
    const service = find(objects, "Service", "support-agent-db") as { spec: object };
    expect(service.spec).toMatchObject({ clusterIP: "None", ports: [{ port: 5432 }] });
  });
});

describe("defaults", () => {
  it("unset limits are twice the request (CPU capped at 16)", () => {
    const out = renderManifests(
      inputWith({
        sourceConfig: {
          resource_spec: {
            cpu: 0.3,
            memory_mb: 300,
            queue_cpu: 8,
            redis_memory_mb: 128,
            db_cpu: 0.1,
          },
          listener_config: null,
        },
      }),
    );
    const resources = (name: string) =>
      mainContainer(find<V1Deployment>(out, "Deployment", name)).resources;
    expect(resources("support-agent")).toEqual({
      requests: { cpu: "300m", memory: "300Mi" },
      limits: { cpu: "600m", memory: "600Mi" },
    });
    expect(resources("support-agent-queue")).toEqual({
      requests: { cpu: "8000m" },
      limits: { cpu: "16000m" },
    });
    expect(resources("support-agent-redis")).toEqual({
      requests: { memory: "128Mi" },
      limits: { memory: "256Mi" },
    });
    const postgres = find<V1StatefulSet>(out, "StatefulSet", "support-agent-db").spec!.template
      .spec!.containers[0]!;
    expect(postgres.resources).toEqual({ requests: { cpu: "100m" }, limits: { cpu: "200m" } });
  });

  it("no spec: one replica each, no autoscaler, no resources, 10Gi, default max_connections", () => {
    const out = renderManifests(
      inputWith({ sourceConfig: { resource_spec: null, listener_config: null } }),
    );
    for (const name of ["support-agent", "support-agent-queue"]) {
      const d = find<V1Deployment>(out, "Deployment", name);
      expect(d.spec!.replicas).toBe(1);
      expect(mainContainer(d).resources).toBeUndefined();
    }
    expect(out.some((o) => o.kind === "HorizontalPodAutoscaler")).toBe(false);
    const statefulSet = find<V1StatefulSet>(out, "StatefulSet", "support-agent-db");
    expect(statefulSet.spec!.volumeClaimTemplates![0]!.spec!.resources!.requests).toEqual({
      storage: "10Gi",
    });
    expect(statefulSet.spec!.template.spec!.containers[0]!.args).toBeUndefined();
  });

  it("min_scale 0 (dev) keeps zero replicas, with or without an autoscaler", () => {
    const render = (spec: object) =>
      renderManifests(inputWith({ sourceConfig: { resource_spec: spec, listener_config: null } }));
    const idle = render({ min_scale: 0, queue_min_scale: 0 });
    expect(find<V1Deployment>(idle, "Deployment", "support-agent").spec!.replicas).toBe(0);
    expect(find<V1Deployment>(idle, "Deployment", "support-agent-queue").spec!.replicas).toBe(0);
    expect(idle.some((o) => o.kind === "HorizontalPodAutoscaler")).toBe(false);

    const ranged = render({ min_scale: 0, max_scale: 3 });
    expect(find<V1Deployment>(ranged, "Deployment", "support-agent").spec!.replicas).toBe(0);
    expect(
      find<V2HorizontalPodAutoscaler>(ranged, "HorizontalPodAutoscaler", "support-agent").spec,
    ).toMatchObject({ minReplicas: 1, maxReplicas: 3 });

    const fixed = render({ min_scale: 3, max_scale: 3 });
    expect(find<V1Deployment>(fixed, "Deployment", "support-agent").spec!.replicas).toBe(3);
    expect(fixed.some((o) => o.kind === "HorizontalPodAutoscaler")).toBe(false);
  });
});
