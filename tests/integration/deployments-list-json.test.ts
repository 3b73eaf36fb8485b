import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { listDeployments } from "@/server/services/deployments/list";
import { deploymentInclude, toDeployment } from "@/server/services/deployments/serialize";
import { bothDatabases } from "../helpers/both-databases";
import { createTenant, type Tenant } from "../helpers/fixtures";

// The list joins each deployment's stored contract JSON (deployments.list_json, kept by
// triggers: migration 20261126000000). Held here to toDeployment over a fresh read, after every
// kind of write to the row and to its secrets, secret references and tags, in one statement or
// many, and when transactions touching one deployment overlap (the one that waited must still
// see what the other committed). On the run's PostgreSQL and on the embedded default's.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(bothDatabases)("stored list JSON on %s", (_, open) => {
  let db: Db;
  let close = async () => undefined as void;
  let tenant: Tenant;
  let tagValues: { id: string; tagKeyId: string }[] = [];
  const ids: string[] = [];

  /** Every deployment's stored JSON against toDeployment of the row read now. */
  async function expectStoredMatches() {
    const rows = await db.deployment.findMany({
      where: { workspaceId: tenant.workspaceId },
      include: deploymentInclude,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const page = await listDeployments(db, tenant.actors.viewer, { offset: 0, limit: 100 });
    expect(page.resources).toEqual(rows.map(toDeployment));
  }

  beforeAll(async () => {
    ({ db, close } = await open());
    tenant = await createTenant(db);
    // One value of each of four keys (a deployment carries at most one value per key).
    tagValues = await Promise.all(
      ["team", "env", "tier", "region"].map(async (name) => {
        const key = await db.tagKey.create({
          data: { workspaceId: tenant.workspaceId, key: name },
        });
        return db.tagValue.create({ data: { tagKeyId: key.id, value: "a" } });
      }),
    );
    for (let i = 0; i < 4; i++) {
      const row = await db.deployment.create({
        data: {
          workspaceId: tenant.workspaceId,
          name: `json-${i}`,
          source: i % 2 ? "external_container" : "internal_source",
          sourceConfig: { deployment_type: "dev", repo_url: `https://example.test/r${i}` },
          sourceRevisionConfig: i % 2 ? { image_uri: `registry.example/a:${i}` } : {},
          secrets: { create: [{ name: `B_${i}`, valueEncrypted: "x" }] },
        },
      });
      ids.push(row.id);
    }
  }, 120_000);

  afterAll(() => close());

  it("is built on create, with the children created in the same call", async () => {
    await expectStoredMatches();
  });

  it("follows the row's own changes", async () => {
    await db.deployment.update({
      where: { id: ids[0]! },
      data: {
        name: "json-renamed",
        status: "READY",
        sourceConfig: { deployment_type: "prod", custom_url: "https://agent.example.test" },
        trackedPackages: ["langgraph", "langchain"],
        imageVersion: "v9",
        runtime: "kubernetes",
      },
    });
    await db.deployment.updateMany({ where: { id: { in: ids } }, data: { status: "READY" } });
    await expectStoredMatches();
  });

  it("carries a preview's pull request and its parent, and source_config.previews", async () => {
    await db.deployment.update({
      where: { id: ids[0]! },
      data: {
        sourceConfig: {
          deployment_type: "dev",
          build_on_push: true,
          previews: { enabled: true, max_open: 2, ttl_hours: 5, secrets: "none" },
        },
      },
    });
    await db.deployment.update({
      where: { id: ids[1]! },
      data: {
        parentId: ids[0]!,
        prNumber: 7,
        preview: {
          pr_number: 7,
          pr_title: "A change",
          pr_url: "https://code.example.test/a/b/pull/7",
          branch: "feature",
          author: "alice",
          head_sha: "c0ffee0",
          fork: true,
          last_push_at: "2026-11-29T20:00:00.000Z",
        },
      },
    });
    await expectStoredMatches();
  });

  it("follows secrets, secret references and tags added, changed and removed", async () => {
    await db.secret.createMany({
      data: ids.flatMap((deploymentId, i) => [
        { deploymentId, name: `A_${i}`, valueEncrypted: "x" },
        { deploymentId, name: `C_${i}`, valueEncrypted: "x" },
      ]),
    });
    await db.secretReference.createMany({
      data: ids.map((deploymentId, i) => ({
        deploymentId,
        name: `REF_${i}`,
        secretName: "k8s",
        secretKey: `key-${i}`,
      })),
    });
    await db.deploymentTag.createMany({
      data: ids.flatMap((deploymentId, i) =>
        tagValues
          .slice(0, 1 + (i % 3))
          .map((v) => ({ deploymentId, tagValueId: v.id, tagKeyId: v.tagKeyId })),
      ),
    });
    await expectStoredMatches();

    await db.secret.updateMany({ where: { name: "A_1" }, data: { name: "Z_1" } });
    await db.secret.deleteMany({ where: { deploymentId: ids[2]! } });
    await db.secretReference.updateMany({
      where: { deploymentId: ids[1]! },
      data: { secretKey: "other" },
    });
    await db.deploymentTag.deleteMany({ where: { deploymentId: { in: [ids[0]!, ids[3]!] } } });
    await expectStoredMatches();
  });

  it("holds when many writers touch one deployment at once", async () => {
    const id = ids[1]!;
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        db.secret.create({ data: { deploymentId: id, name: `P_${i}`, valueEncrypted: "x" } }),
      ),
      ...tagValues.map((v) =>
        db.deploymentTag.upsert({
          where: { deploymentId_tagValueId: { deploymentId: id, tagValueId: v.id } },
          create: { deploymentId: id, tagValueId: v.id, tagKeyId: v.tagKeyId },
          update: {},
        }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        db.deployment.update({ where: { id }, data: { imageVersion: `p${i}` } }),
      ),
    ]);
    await expectStoredMatches();
  });

  it("a write that waited for another transaction includes what that one committed", async () => {
    const id = ids[3]!;
    let added!: () => void;
    const secretAdded = new Promise<void>((resolve) => (added = resolve));
    // The first holds the deployment (its new secret rebuilt the JSON) for a while; the others
    // start meanwhile and wait for it: their rebuilds must see its secret once it commits.
    const holder = db.$transaction(
      async (tx) => {
        await tx.secret.create({ data: { deploymentId: id, name: "HELD", valueEncrypted: "x" } });
        added();
        await pause(400);
      },
      { timeout: 10_000 },
    );
    await secretAdded;
    const tag = tagValues[0]!; // its tags were all removed above
    await Promise.all([
      holder,
      db.deploymentTag.create({
        data: { deploymentId: id, tagValueId: tag.id, tagKeyId: tag.tagKeyId },
      }),
      db.deployment.update({ where: { id }, data: { status: "UNUSED" } }),
    ]);
    const [row] = await db.$queryRaw<{ list_json: string }[]>`
      SELECT list_json FROM deployments WHERE id = ${id}::uuid`;
    const stored = JSON.parse(row!.list_json) as { secrets: { name: string }[]; status: string };
    expect(stored.secrets.map((s) => s.name)).toContain("HELD");
    expect(stored.status).toBe("UNUSED");
    await expectStoredMatches();
  });

  it("a deployment deleted with its children leaves the others as they were", async () => {
    await db.deployment.delete({ where: { id: ids[2]! } });
    ids.splice(2, 1);
    await expectStoredMatches();
  });
});
