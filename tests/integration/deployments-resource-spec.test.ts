import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { validDeployment } from "../helpers/deployments";
import { api } from "../helpers/http";

// Contract 5.2's resource_spec rules, over HTTP.

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const post = (resource_spec: unknown, deployment_type?: string) =>
  api("/v2/deployments", {
    key: tenant.keys.editor,
    method: "POST",
    body: validDeployment("internal_container", {
      source_config: { resource_spec, deployment_type },
    }),
  });

const volume = { name: "data", emptyDir: {} };
const sidecar = (name: string, mount?: string) => ({
  name,
  image: "busybox",
  ...(mount ? { volumeMounts: [{ name: mount, mountPath: "/data" }] } : {}),
});

describe("resource_spec on create", () => {
  it.each([
    ["cpu below 0.1", { cpu: 0.05 }, "cpu"],
    ["cpu above 8", { cpu: 8.1 }, "cpu"],
    ["cpu with two decimals", { cpu: 0.25 }, "cpu"],
    ["cpu_limit above 16", { cpu_limit: 16.1 }, "cpu_limit"],
    ["cpu_limit below cpu", { cpu: 2, cpu_limit: 1 }, "cpu_limit"],
    ["memory below 128 MB", { memory_mb: 127 }, "memory_mb"],
    ["memory limit below request", { memory_mb: 512, memory_limit_mb: 256 }, "memory_limit_mb"],
    ["max_scale above 100", { max_scale: 101 }, "max_scale"],
    ["negative min_scale", { min_scale: -1 }, "min_scale"],
    ["max_scale below min_scale", { min_scale: 3, max_scale: 2 }, "max_scale"],
    ["queue_cpu above 8", { queue_cpu: 9 }, "queue_cpu"],
    ["queue_max_scale below min", { queue_min_scale: 2, queue_max_scale: 1 }, "queue_max_scale"],
    [
      "orchestrator limit below request",
      { orchestrator_memory_mb: 1024, orchestrator_memory_limit_mb: 512 },
      "orchestrator_memory_limit_mb",
    ],
    [
      "orchestrator_max_scale below min",
      { orchestrator_min_scale: 5, orchestrator_max_scale: 4 },
      "orchestrator_max_scale",
    ],
    ["executor memory below 128", { executor_memory_mb: 100 }, "executor_memory_mb"],
    ["redis_cpu_limit below request", { redis_cpu: 1, redis_cpu_limit: 0.5 }, "redis_cpu_limit"],
    ["db_cpu below 0.1", { db_cpu: 0 }, "db_cpu"],
    ["db_storage_gi 0", { db_storage_gi: 0 }, "db_storage_gi"],
    ["db_storage_gi 1001", { db_storage_gi: 1001 }, "db_storage_gi"],
    ["db_max_connections 0", { db_max_connections: 0 }, "db_max_connections"],
    ["db_max_connections 10001", { db_max_connections: 10001 }, "db_max_connections"],
    ["duplicate volumes", { volumes: [volume, volume] }, "volumes"],
    [
      "duplicate container names",
      { init_containers: [sidecar("x")], sidecars: [sidecar("x")] },
      "sidecars",
    ],
    ["a mount naming no volume", { volume_mounts: [{ name: "nope", mountPath: "/x" }] }, ""],
    ["a container mount naming no volume", { sidecars: [sidecar("s", "nope")] }, ""],
  ])("refuses %s with 422", async (_, spec, field) => {
    const res = await post(spec);
    expect(res.status, res.text).toBe(422);
    const loc = res.body.detail[0].loc;
    expect(loc.slice(0, 4)).toEqual(["body", "source_config", "resource_spec", loc[3]]);
    if (field) expect(loc[3]).toBe(field);
  });

  it("accepts the bounds and fills unset limits with twice the request", async () => {
    const res = await post({
      cpu: 0.1,
      memory_mb: 128,
      min_scale: 0,
      max_scale: 100,
      queue_cpu: 8,
      queue_memory_mb: 512,
      queue_memory_limit_mb: 600,
      orchestrator_cpu: 1.5,
      executor_cpu: 0.3,
      redis_memory_mb: 256,
      db_cpu: 2,
      db_cpu_limit: 2,
      db_storage_gi: 1000,
      db_max_connections: 10000,
      volumes: [volume],
      volume_mounts: [{ name: "data", mountPath: "/data" }],
      sidecars: [sidecar("logger", "data")],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.source_config.resource_spec).toMatchObject({
      cpu: 0.1,
      cpu_limit: 0.2,
      memory_mb: 128,
      memory_limit_mb: 256,
      queue_cpu_limit: 16,
      queue_memory_limit_mb: 600,
      orchestrator_cpu_limit: 3,
      executor_cpu_limit: 0.6,
      redis_memory_limit_mb: 512,
      db_cpu_limit: 2,
      db_storage_gi: 1000,
      db_max_connections: 10000,
    });
  });

  it("allows min_scale 0 for dev and dev_free only", async () => {
    for (const type of ["dev", "dev_free"]) {
      expect((await post({ min_scale: 0 }, type)).status).toBe(201);
    }
    for (const key of ["min_scale", "queue_min_scale", "orchestrator_min_scale"]) {
      const res = await post({ [key]: 0 }, "prod");
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", "source_config", "resource_spec", key]);
    }
    const prod = await post({ min_scale: 1 }, "prod");
    expect(prod.status).toBe(201);
    expect(prod.body.source_config.deployment_type).toBe("prod");
  });
});
