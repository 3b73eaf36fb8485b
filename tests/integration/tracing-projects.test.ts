import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  dropExpiredRunPartitions,
  ensureRunPartitions,
  listRunPartitions,
} from "../../src/server/services/tracing/partitions";
import { createDeploymentOverHttp, validDeployment } from "../helpers/deployments";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

// A deployment's tracing project (created with it, kept when it goes) and run retention by
// whole day partitions.

let tenant: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
});

describe("a deployment's tracing project", () => {
  it("is created with the deployment, same name, same workspace", async () => {
    const deployment = await createDeploymentOverHttp(
      tenant.keys.editor,
      validDeployment("internal_container"),
    );
    const found = await api(`/api/v1/sessions?name=${deployment.name}`, {
      key: tenant.keys.viewer,
    });
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({
      name: deployment.name,
      tenant_id: tenant.workspaceId,
      deployment_id: deployment.id,
    });
  });

  it("stays, detached with its runs, when the deployment is gone; a new one of that name takes it", async () => {
    // Awaiting its image: no revision, so no worker step races the row's removal below.
    const body = validDeployment("internal_container", {
      source_revision_config: { image_uri: null },
    });
    const deployment = await createDeploymentOverHttp(tenant.keys.editor, body);
    const project = await testDb().tracingProject.findUniqueOrThrow({
      where: { deploymentId: deployment.id },
    });
    // The worker removes the row once the runtime is torn down: the same end, without the wait.
    await testDb().deployment.delete({ where: { id: deployment.id } });
    const kept = await api(`/api/v1/sessions/${project.id}`, { key: tenant.keys.viewer });
    expect(kept.status).toBe(200);
    expect(kept.body.deployment_id).toBeNull();
    const next = await createDeploymentOverHttp(tenant.keys.editor, body);
    const reattached = await api(`/api/v1/sessions/${project.id}`, { key: tenant.keys.viewer });
    expect(reattached.body.deployment_id).toBe(next.id);
  });
});

describe("run retention", () => {
  it("drops whole day partitions past the retention and keeps the recent ones", async () => {
    const db = testDb();
    const day = 24 * 3600 * 1000;
    const now = new Date();
    const old = new Date(now.getTime() - 40 * day);
    const recent = new Date(now.getTime() - 2 * day);
    await ensureRunPartitions(db, [old, recent]);
    const name = (d: Date) => `tracing_runs_p${d.toISOString().slice(0, 10).replaceAll("-", "")}`;
    for (const time of [old, recent])
      await db.$executeRawUnsafe(
        `INSERT INTO tracing_runs (id, sort_time, workspace_id, name) VALUES ($1::uuid, $2::timestamptz, $3::uuid, 'retained?')`,
        randomUUID(),
        time.toISOString(),
        tenant.workspaceId,
      );
    expect(await listRunPartitions(db)).toEqual(expect.arrayContaining([name(old), name(recent)]));

    const dropped = await dropExpiredRunPartitions(db, now, 30);
    expect(dropped).toContain(name(old));
    expect(dropped).not.toContain(name(recent));
    const left = await listRunPartitions(db);
    expect(left).not.toContain(name(old));
    expect(left).toContain(name(recent));
    const rows = await db.$queryRawUnsafe<{ sort_time: Date }[]>(
      `SELECT sort_time FROM tracing_runs WHERE workspace_id = $1::uuid AND name = 'retained?'`,
      tenant.workspaceId,
    );
    expect(rows.map((r) => r.sort_time.toISOString())).toEqual([recent.toISOString()]);
    // The table holds no rows outside its partitions (no default partition to delete from).
    const tables = await db.$queryRawUnsafe<{ relname: string }[]>(
      `SELECT relname FROM pg_class WHERE relname = $1`,
      name(old),
    );
    expect(tables).toEqual([]);
  });
});
