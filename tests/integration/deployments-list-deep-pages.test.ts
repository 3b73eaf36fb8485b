import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { countDeployments, listDeployments } from "@/server/services/deployments/list";
import { SEEK_FROM_OFFSET } from "@/server/services/deployments/page-ids";
import { bothDatabases } from "../helpers/both-databases";
import { createTenant, type Tenant } from "../helpers/fixtures";

// Deep pages of the whole list start from the hour that holds their offset
// (deployment_time_buckets, kept by triggers). Held here to the plain index walk they replace,
// after every way rows arrive and leave: one big INSERT, single creates, concurrent creates in
// the same hour, deletes of one row and of many, and a tool moving a row to another hour. On
// the run's PostgreSQL and on the embedded default's, whose triggers must keep the same counts.

const COUNT = SEEK_FROM_OFFSET + 1_400;

describe.each(bothDatabases)("deep pages of the deployment list on %s", (_, open) => {
  let db: Db;
  let close = async () => undefined as void;
  let tenant: Tenant;

  /** The page by walking the ordering index: what the buckets must reproduce. */
  async function walked(workspaceId: string, offset: number, limit: number): Promise<string[]> {
    const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM deployments WHERE workspace_id = ${workspaceId}::uuid
    ORDER BY created_at DESC, id DESC OFFSET ${offset} LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  /** Rows over ~9 hours, several per timestamp (the id breaks those ties), in one statement. */
  async function insertMany(workspaceId: string, count: number, prefix: string) {
    await db.$executeRaw`
    INSERT INTO deployments (id, workspace_id, name, source, deployment_type, status, source_config,
                             source_revision_config, created_at, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, ${prefix} || g, 'internal_container', 'dev',
           'READY', '{"deployment_type":"dev"}', '{"image_uri":"registry.example/a:1"}',
           date_trunc('hour', now()) - make_interval(secs => (g / 3) * 37), now()
    FROM generate_series(1, ${count}) AS g`;
  }

  async function expectPagesMatch(offsets: number[]) {
    for (const offset of offsets)
      for (const limit of [1, 20, 100]) {
        const page = await listDeployments(db, tenant.actors.viewer, { offset, limit });
        const expected = await walked(tenant.workspaceId, offset, limit);
        expect(
          page.resources.map((r) => r.id),
          `offset ${offset} limit ${limit}`,
        ).toEqual(expected);
        expect(page.offset).toBe(offset + expected.length);
      }
  }

  beforeAll(async () => {
    ({ db, close } = await open());
    tenant = await createTenant(db);
    const other = await createTenant(db);
    await insertMany(tenant.workspaceId, COUNT, "deep-");
    // Another workspace's rows in the same hours count only for that workspace.
    await insertMany(other.workspaceId, 700, "other-");
  }, 120_000);

  afterAll(() => close());

  const offsets = [
    SEEK_FROM_OFFSET,
    SEEK_FROM_OFFSET + 1,
    SEEK_FROM_OFFSET + 293,
    COUNT - 100,
    COUNT - 20,
    COUNT - 1,
    COUNT,
    COUNT + 500,
  ];

  it("match the index walk after one large insert", async () => {
    await expectPagesMatch(offsets);
    const total = await countDeployments(db, tenant.actors.viewer, { limit: 20, offset: 0 });
    expect(total).toBe(COUNT);
  });

  it("stay exact through creates, concurrent creates, deletes and moved rows", async () => {
    const one = (name: string, createdAt: Date) =>
      db.deployment.create({
        data: {
          workspaceId: tenant.workspaceId,
          name,
          source: "internal_container",
          deploymentType: "dev",
          sourceConfig: { deployment_type: "dev" },
          sourceRevisionConfig: { image_uri: "registry.example/a:1" },
          createdAt,
        },
      });
    await one("single-new", new Date());
    // Ten creates at once in one hour: they queue on that hour's counter, none is lost.
    const hourAgo = new Date(Date.now() - 3_600_000);
    await Promise.all(Array.from({ length: 10 }, (_, i) => one(`concurrent-${i}`, hourAgo)));
    const victims = await walked(tenant.workspaceId, SEEK_FROM_OFFSET + 50, 30);
    await db.deployment.delete({ where: { id: victims[0]! } });
    await db.deployment.deleteMany({ where: { id: { in: victims.slice(1) } } });
    // A tool moves a row (Hangar never does): it changes hours in the counts too.
    const [moved] = await walked(tenant.workspaceId, 5, 1);
    await db.deployment.update({
      where: { id: moved! },
      data: { createdAt: new Date(Date.now() - 5 * 3_600_000) },
    });

    const total = COUNT + 1 + 10 - 30;
    expect(await countDeployments(db, tenant.actors.viewer, { limit: 20, offset: 0 })).toBe(total);
    await expectPagesMatch([...offsets, total - 1, total]);
  });
});
