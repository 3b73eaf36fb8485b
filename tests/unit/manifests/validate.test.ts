import { describe, expect, it } from "vitest";
import { renderManifests } from "../../../src/server/jobs/manifests";
import { container, resourceSpec, volume, volumeMount } from "../../../src/schemas/resource-spec";
import { fullSpec, inputWith, validate } from "./fixtures";

const kindsAndNames = (objects: ReturnType<typeof renderManifests>) =>
  objects.map((o) => `${o.kind}/${o.metadata?.name}`);

describe("rendered manifests validate against the Kubernetes schemas", () => {
  it("the fixture uses every field of the resource spec, volume, mount and container", () => {
    expect(Object.keys(fullSpec).sort()).toEqual(Object.keys(resourceSpec.shape).sort());
    const volumeMembers = new Set(fullSpec.volumes!.flatMap((v) => Object.keys(v)));
    expect([...volumeMembers].sort()).toEqual(Object.keys(volume.shape).sort());
    const mountMembers = new Set(fullSpec.volume_mounts!.flatMap((m) => Object.keys(m)));
    expect([...mountMembers].sort()).toEqual(Object.keys(volumeMount.shape).sort());
    expect(Object.keys(fullSpec.sidecars![0]!).sort()).toEqual(Object.keys(container.shape).sort());
  });

  it("renders every component of a full spec, each object valid", () => {
    const objects = renderManifests(inputWith());
    expect(kindsAndNames(objects)).toEqual([
      "Namespace/hangar-0196f1c2-0000-7000-8000-aabbccddeeff",
      "Secret/support-agent-secrets",
      "Secret/support-agent-db-auth",
      "StatefulSet/support-agent-db",
      "Service/support-agent-db",
      "Deployment/support-agent-redis",
      "Service/support-agent-redis",
      "Deployment/support-agent",
      "HorizontalPodAutoscaler/support-agent",
      "Service/support-agent",
      "Deployment/support-agent-queue",
      "HorizontalPodAutoscaler/support-agent-queue",
      "Deployment/support-agent-orchestrator",
      "HorizontalPodAutoscaler/support-agent-orchestrator",
      "Deployment/support-agent-executor",
    ]);
    for (const object of objects) expect(() => validate(object), `${object.kind}`).not.toThrow();
  });

  it("renders valid objects with no resource spec at all", () => {
    const objects = renderManifests(
      inputWith({ sourceConfig: { resource_spec: null, listener_config: null } }),
    );
    expect(kindsAndNames(objects)).toEqual([
      "Namespace/hangar-0196f1c2-0000-7000-8000-aabbccddeeff",
      "Secret/support-agent-secrets",
      "Secret/support-agent-db-auth",
      "StatefulSet/support-agent-db",
      "Service/support-agent-db",
      "Deployment/support-agent-redis",
      "Service/support-agent-redis",
      "Deployment/support-agent",
      "Service/support-agent",
      "Deployment/support-agent-queue",
    ]);
    for (const object of objects) expect(() => validate(object), `${object.kind}`).not.toThrow();
  });

  it("contains no null or undefined members (the spec's nulls are dropped)", () => {
    const json = JSON.stringify(renderManifests(inputWith()));
    expect(json).not.toContain("null");
    expect(JSON.parse(json)).toEqual(renderManifests(inputWith()));
  });

  it("the validator does catch a broken object", () => {
    const [namespace, secret] = renderManifests(inputWith());
    expect(() => validate({ ...secret!, kind: "Deployment", spec: {} } as never)).toThrow();
    expect(() => validate({ ...namespace!, metadata: { name: 5 } } as never)).toThrow();
  });
});
