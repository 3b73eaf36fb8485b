import type { V1Deployment, V1StatefulSet } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { renderManifests } from "../../../src/server/jobs/manifests";
import { find, fullSpec, inputWith, mainContainer } from "./fixtures";

const objects = renderManifests(inputWith());
const appNames = [
  "support-agent",
  "support-agent-queue",
  "support-agent-orchestrator",
  "support-agent-executor",
];
const server = find<V1Deployment>(objects, "Deployment", "support-agent");

describe("the app's pods", () => {
  it("run the revision's image, the server on port 8000 behind a Service", () => {
    for (const name of appNames)
      expect(mainContainer(find<V1Deployment>(objects, "Deployment", name)).image).toBe(
        inputWith().revision.imageRef,
      );
    expect(mainContainer(server).ports).toEqual([
      { name: "http", containerPort: 8000, protocol: "TCP" },
    ]);
    const service = find(objects, "Service", "support-agent") as { spec: object };
    expect(service.spec).toEqual({
      type: "ClusterIP",
      selector: {
        "app.kubernetes.io/component": "server",
        "hangar.dev/deployment-id": inputWith().deployment.id,
      },
      ports: [{ name: "http", port: 8000, targetPort: 8000, protocol: "TCP" }],
    });
  });

  it("get secrets and secret references as secretKeyRef env, after the built-in entries", () => {
    const env = mainContainer(server).env;
    expect(env).toEqual([
      { name: "HANGAR_PROCESS", value: "server" },
      {
        name: "REDIS_URI",
        value: "redis://support-agent-redis.hangar-0196f1c2-0000-7000-8000-aabbccddeeff.svc:6379",
      },
      {
        name: "DATABASE_URI",
        valueFrom: { secretKeyRef: { name: "support-agent-db-auth", key: "uri" } },
      },
      {
        name: "ANOTHER_TOKEN",
        valueFrom: { secretKeyRef: { name: "support-agent-secrets", key: "ANOTHER_TOKEN" } },
      },
      {
        name: "OPENAI_API_KEY",
        valueFrom: { secretKeyRef: { name: "support-agent-secrets", key: "OPENAI_API_KEY" } },
      },
      { name: "DB_READONLY_URL", valueFrom: { secretKeyRef: { name: "shared-db", key: "url" } } },
    ]);
    const queueEnv = mainContainer(
      find<V1Deployment>(objects, "Deployment", "support-agent-queue"),
    ).env!;
    expect(queueEnv[0]).toEqual({ name: "HANGAR_PROCESS", value: "queue" });
    expect(queueEnv.slice(1)).toEqual(env!.slice(1));
    expect(JSON.stringify(env)).not.toContain("sk-live-very-secret");
  });

  it("a user secret or reference of a built-in name replaces the built-in entry", () => {
    const out = renderManifests(
      inputWith({
        secrets: [{ name: "DATABASE_URI", value: "postgres://elsewhere" }],
        secretReferences: [{ name: "REDIS_URI", secret_name: "own-redis", secret_key: "uri" }],
      }),
    );
    const env = mainContainer(find<V1Deployment>(out, "Deployment", "support-agent")).env!;
    expect(env.map((e) => e.name)).toEqual(["HANGAR_PROCESS", "DATABASE_URI", "REDIS_URI"]);
    expect(env[1]!.valueFrom!.secretKeyRef).toEqual({
      name: "support-agent-secrets",
      key: "DATABASE_URI",
    });
    expect(env[2]!.valueFrom!.secretKeyRef).toEqual({ name: "own-redis", key: "uri" });
  });

  it("pass the spec's pod settings through to every app process", () => {
    const { volume_mounts, init_containers, sidecars } = fullSpec;
    for (const name of appNames) {
      const pod = find<V1Deployment>(objects, "Deployment", name).spec!.template.spec!;
      expect(pod.serviceAccountName).toBe("agent-runner");
      expect(pod.imagePullSecrets).toEqual([{ name: "registry-a" }, { name: "registry-b" }]);
      expect(pod.volumes).toEqual(fullSpec.volumes);
      expect(pod.initContainers).toEqual(init_containers);
      expect(pod.containers.map((c) => c.name)).toEqual([pod.containers[0]!.name, "log-shipper"]);
      // The spec's nulls are dropped; everything else is as given.
      const { restartPolicy, ...sidecar } = sidecars![0]!;
      expect(restartPolicy).toBeNull();
      expect(pod.containers[1]).toEqual({
        ...sidecar,
        env: [{ name: "LOG_LEVEL", value: "info" }, sidecar.env![1]],
      });
      const { subPathExpr, ...firstMount } = volume_mounts![0]!;
      expect(subPathExpr).toBeNull();
      expect(pod.containers[0]!.volumeMounts).toEqual([firstMount, volume_mounts![1]]);
    }
  });

  it("the cache and database get none of the app's pod settings", () => {
    const redisPod = find<V1Deployment>(objects, "Deployment", "support-agent-redis").spec!.template
      .spec!;
    const dbPod = find<V1StatefulSet>(objects, "StatefulSet", "support-agent-db").spec!.template
      .spec!;
    for (const pod of [redisPod, dbPod]) {
      expect(pod.serviceAccountName).toBeUndefined();
      expect(pod.volumes).toBeUndefined();
      expect(pod.containers).toHaveLength(1);
    }
  });
});

describe("labels, annotations, namespace", () => {
  it("merge the spec's labels under ours on every object and app pod", () => {
    const { deployment, revision } = inputWith();
    for (const object of objects.filter((o) => o.kind !== "Namespace")) {
      expect(object.metadata!.namespace).toBe(`hangar-${deployment.workspaceId}`);
      expect(object.metadata!.labels).toMatchObject({
        team: "agents",
        "app.kubernetes.io/name": "support-agent",
        "app.kubernetes.io/instance": "support-agent",
        "app.kubernetes.io/managed-by": "hangar",
        "hangar.dev/deployment-id": deployment.id,
        "hangar.dev/workspace-id": deployment.workspaceId,
        "hangar.dev/deployment-type": "prod",
        "hangar.dev/revision": "3",
      });
      expect(object.metadata!.annotations).toEqual({
        "hangar.dev/revision-id": revision.id,
        owner: "ops@example.com",
        "prometheus.io/scrape": "true",
      });
    }
    expect(server.spec!.template.metadata!.labels).toMatchObject({
      team: "agents",
      "hangar.dev/revision": "3",
    });
    expect(server.spec!.template.metadata!.annotations).toMatchObject({
      "hangar.dev/revision-id": revision.id,
    });
    expect(server.spec!.selector.matchLabels).toEqual({
      "app.kubernetes.io/component": "server",
      "hangar.dev/deployment-id": deployment.id,
    });
  });

  it("the cache and database pods carry no revision, so a new revision does not restart them", () => {
    const redis = find<V1Deployment>(objects, "Deployment", "support-agent-redis").spec!.template
      .metadata!;
    const db = find<V1StatefulSet>(objects, "StatefulSet", "support-agent-db").spec!.template
      .metadata!;
    for (const meta of [redis, db]) {
      expect(meta.labels).toMatchObject({ team: "agents" });
      expect(meta.labels).not.toHaveProperty("hangar.dev/revision");
      expect(meta.annotations).toEqual({
        owner: "ops@example.com",
        "prometheus.io/scrape": "true",
      });
    }
  });

  it("render our own Namespace by default, and use listener_config's without rendering it", () => {
    expect(objects[0]).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "hangar-0196f1c2-0000-7000-8000-aabbccddeeff",
        labels: {
          "app.kubernetes.io/managed-by": "hangar",
          "hangar.dev/workspace-id": "0196f1c2-0000-7000-8000-aabbccddeeff",
        },
      },
    });
    const out = renderManifests(
      inputWith({
        sourceConfig: {
          resource_spec: fullSpec,
          listener_config: { k8s_namespace: "agents-prod" },
        },
      }),
    );
    expect(out.some((o) => o.kind === "Namespace")).toBe(false);
    for (const object of out) expect(object.metadata!.namespace).toBe("agents-prod");
    const env = mainContainer(find<V1Deployment>(out, "Deployment", "support-agent")).env!;
    expect(env[1]).toEqual({
      name: "REDIS_URI",
      value: "redis://support-agent-redis.agents-prod.svc:6379",
    });
  });
});
