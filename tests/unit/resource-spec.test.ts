import { describe, expect, it } from "vitest";
import { resourceSpec, withDefaultLimits } from "../../src/schemas/resource-spec";

const issues = (spec: unknown) => {
  const result = resourceSpec.safeParse(spec);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
};

describe("resourceSpec", () => {
  it("accepts an empty spec and the bounds", () => {
    expect(issues({})).toEqual([]);
    expect(
      issues({
        cpu: 8,
        cpu_limit: 16,
        memory_mb: 128,
        min_scale: 0,
        max_scale: 100,
        db_storage_gi: 1,
        db_max_connections: 10000,
      }),
    ).toEqual([]);
  });

  const groups = ["", "queue_", "orchestrator_", "executor_", "redis_", "db_"];

  it.each(groups)("applies the cpu and memory rules to the %j group", (p) => {
    expect(issues({ [`${p}cpu`]: 0 })).toEqual([`${p}cpu`]);
    expect(issues({ [`${p}cpu`]: 8.5 })).toEqual([`${p}cpu`]);
    expect(issues({ [`${p}cpu`]: 1.25 })).toEqual([`${p}cpu`]);
    expect(issues({ [`${p}cpu_limit`]: 16.5 })).toEqual([`${p}cpu_limit`]);
    expect(issues({ [`${p}cpu`]: 4, [`${p}cpu_limit`]: 3.9 })).toEqual([`${p}cpu_limit`]);
    expect(issues({ [`${p}memory_mb`]: 127 })).toEqual([`${p}memory_mb`]);
    expect(issues({ [`${p}memory_mb`]: 512, [`${p}memory_limit_mb`]: 511 })).toEqual([
      `${p}memory_limit_mb`,
    ]);
    expect(issues({ [`${p}cpu`]: 0.3, [`${p}cpu_limit`]: 0.3 })).toEqual([]);
  });

  it.each(["", "queue_", "orchestrator_"])("applies the scale rules to the %j group", (p) => {
    expect(issues({ [`${p}min_scale`]: -1 })).toEqual([`${p}min_scale`]);
    expect(issues({ [`${p}max_scale`]: 101 })).toEqual([`${p}max_scale`]);
    expect(issues({ [`${p}min_scale`]: 2, [`${p}max_scale`]: 1 })).toEqual([`${p}max_scale`]);
    expect(issues({ [`${p}min_scale`]: 1.5 })).toEqual([`${p}min_scale`]);
  });

  it("bounds the database storage and connections", () => {
    expect(issues({ db_storage_gi: 0 })).toEqual(["db_storage_gi"]);
    expect(issues({ db_storage_gi: 1001 })).toEqual(["db_storage_gi"]);
    expect(issues({ db_max_connections: 0 })).toEqual(["db_max_connections"]);
    expect(issues({ db_max_connections: 10001 })).toEqual(["db_max_connections"]);
  });

  it("wants unique container and volume names and mounts that name volumes", () => {
    const c = (name: string, mount?: string) => ({
      name,
      image: "busybox",
      volumeMounts: mount ? [{ name: mount, mountPath: "/m" }] : undefined,
    });
    const v = { name: "data", emptyDir: {} };
    expect(issues({ init_containers: [c("a")], sidecars: [c("a")] })).toEqual(["sidecars"]);
    expect(issues({ volumes: [v, v] })).toEqual(["volumes"]);
    expect(issues({ volume_mounts: [{ name: "x", mountPath: "/x" }] })).toEqual([
      "volume_mounts.0.name",
    ]);
    expect(issues({ sidecars: [c("s", "x")] })).toEqual(["sidecars.0.volumeMounts.0.name"]);
    expect(
      issues({
        volumes: [v],
        volume_mounts: [{ name: "data", mountPath: "/d" }],
        sidecars: [c("s", "data")],
      }),
    ).toEqual([]);
  });
});

describe("withDefaultLimits", () => {
  it("sets each unset limit to twice its request and keeps given limits", () => {
    expect(
      withDefaultLimits({
        cpu: 1.5,
        memory_mb: 300,
        queue_cpu: 8,
        db_cpu: 0.3,
        db_cpu_limit: 0.4,
        redis_memory_mb: 200,
        redis_memory_limit_mb: 250,
      }),
    ).toEqual({
      cpu: 1.5,
      cpu_limit: 3,
      memory_mb: 300,
      memory_limit_mb: 600,
      queue_cpu: 8,
      queue_cpu_limit: 16,
      db_cpu: 0.3,
      db_cpu_limit: 0.4,
      redis_memory_mb: 200,
      redis_memory_limit_mb: 250,
    });
  });

  it("leaves limits unset when there is no request", () => {
    expect(withDefaultLimits({ max_scale: 3 })).toEqual({ max_scale: 3 });
  });
});

describe("resourceSpec Kubernetes names", () => {
  it("refuses container names Hangar uses for its own containers", () => {
    const container = (name: string) => ({ name, image: "busybox" });
    expect(issues({ sidecars: [container("server")] })).toEqual(["sidecars"]);
    expect(issues({ init_containers: [container("queue")] })).toEqual(["sidecars"]);
    expect(issues({ sidecars: [container("log-shipper")] })).toEqual([]);
  });

  it("checks label and annotation keys, and label values, with Kubernetes' syntax", () => {
    expect(issues({ labels: { team: "payments", "hangar.dev/tier": "gold", empty: "" } })).toEqual(
      [],
    );
    expect(issues({ labels: { "bad key": "x" } })).toEqual(["labels.bad key"]);
    expect(issues({ labels: { team: "not valid!" } })).toEqual(["labels.team"]);
    expect(issues({ labels: { team: "x".repeat(64) } })).toEqual(["labels.team"]);
    expect(issues({ annotations: { "example.com/note": "any text, even spaces!" } })).toEqual([]);
    expect(issues({ annotations: { "-bad": "x" } })).toEqual(["annotations.-bad"]);
  });
});
