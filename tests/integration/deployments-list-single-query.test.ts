import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@/generated/prisma/client";
import {
  deploymentStatus,
  deploymentType,
  SECRET_PLACEHOLDER,
  type ListDeploymentsQuery,
} from "@/schemas/deployments";
import { listDeployments } from "@/server/services/deployments/list";
import { deploymentInclude, toDeployment } from "@/server/services/deployments/serialize";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";

// The list answers in one SQL round trip, its JSON built by PostgreSQL (listDeployments parses
// the very text the REST door sends). This holds it to the Prisma query it replaced (filters
// as Prisma conditions, then the page's rows with their relations): same rows, same order, same
// bodies, for generated combinations of every filter, offset and limit.

let tenant: Tenant;
let tagValues: string[] = [];
const ids: string[] = [];

const statuses = deploymentStatus.options;
const types = deploymentType.options;
const names = ["Alpha", "alpha_1", "al%pha", "beta", "BETA-2", "gam_ma", "delta\\x", "echo"];

/** The Prisma implementation the single query replaced, kept here as the reference. */
async function reference(query: ListDeploymentsQuery) {
  const db = testDb();
  const where: Prisma.DeploymentWhereInput = { workspaceId: tenant.workspaceId };
  if (query.name_contains)
    where.name = {
      contains: query.name_contains.replace(/[\\%_]/g, (c) => `\\${c}`),
      mode: "insensitive",
    };
  if (query.status?.length) where.status = { in: query.status };
  if (query.remote_reconciled !== undefined)
    where.listenerId = query.remote_reconciled ? { not: null } : null;
  if (query.tag_value_ids?.length)
    where.AND = [...new Set(query.tag_value_ids)].map((tagValueId) => ({
      tags: { some: { tagValueId } },
    }));
  if (query.image_version !== undefined) where.imageVersion = query.image_version;
  if (query.deployment_type) where.deploymentType = query.deployment_type;
  if (query.deployment_ids?.length) where.id = { in: query.deployment_ids };
  const rows = await db.deployment.findMany({
    where,
    include: deploymentInclude,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: query.offset,
    take: query.limit,
  });
  return { resources: rows.map(toDeployment), offset: query.offset + rows.length };
}

beforeAll(async () => {
  tenant = await createTenant();
  const other = await createTenant();
  const db = testDb();
  const keys = await Promise.all(
    ["team", "env"].map((key) =>
      db.tagKey.create({ data: { workspaceId: tenant.workspaceId, key } }),
    ),
  );
  const values = await Promise.all(
    keys.flatMap((k) =>
      ["a", "b"].map((value) => db.tagValue.create({ data: { tagKeyId: k.id, value } })),
    ),
  );
  tagValues = values.map((v) => v.id);
  const base = Date.now();
  for (const [workspaceId, count] of [
    [tenant.workspaceId, 48],
    [other.workspaceId, 6],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const row = await db.deployment.create({
        data: {
          workspaceId,
          name: `${names[i % names.length]}-${i}`,
          source: i % 4 === 0 ? "external_container" : "internal_container",
          deploymentType: types[i % types.length]!,
          status: statuses[i % statuses.length]!,
          sourceConfig: { deployment_type: types[i % types.length], custom_url: null },
          sourceRevisionConfig: { image_uri: `registry.example/agent:${i}` },
          listenerId: i % 3 === 0 ? "00000000-0000-4000-8000-00000000d1d1" : null,
          imageVersion: i % 5 === 0 ? null : `v${i % 3}`,
          // Pairs share a timestamp, so the id tie-break decides their order.
          createdAt: new Date(base - Math.floor(i / 2) * 1000),
          secrets: {
            create: Array.from({ length: i % 3 }, (_, j) => ({
              name: `S_${(i * 7 + j) % 5}${j}`,
              valueEncrypted: "x",
            })),
          },
          secretReferences: {
            create: Array.from({ length: i % 4 === 0 ? 2 : 0 }, (_, j) => ({
              name: `REF_${2 - j}`,
              secretName: `k8s-${i}`,
              secretKey: `key-${j}`,
            })),
          },
        },
      });
      if (workspaceId === tenant.workspaceId) {
        ids.push(row.id);
        // Up to one value per key: team a/b on some, env a/b on others.
        const picks = [values[i % 2], i % 3 === 0 ? values[2 + (i % 2)] : undefined];
        for (const v of picks.filter((p) => p && i % 5 !== 4))
          await db.deploymentTag.create({
            data: { deploymentId: row.id, tagValueId: v!.id, tagKeyId: v!.tagKeyId },
          });
      }
    }
  }
});

const queryArb = () =>
  fc.record(
    {
      limit: fc.integer({ min: 1, max: 60 }),
      offset: fc.integer({ min: 0, max: 50 }),
      name_contains: fc.constantFrom("a", "ALPHA", "%", "_", "l%p", "a_1", "\\", "-1", "zzz"),
      status: fc.uniqueArray(fc.constantFrom(...statuses), { minLength: 1, maxLength: 3 }),
      remote_reconciled: fc.boolean(),
      tag_value_ids: fc.array(fc.constantFrom(...tagValues), { minLength: 1, maxLength: 3 }),
      image_version: fc.constantFrom("v0", "v1", "v2", "v9"),
      deployment_type: fc.constantFrom(...types),
      deployment_ids: fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 10 }),
    },
    { requiredKeys: ["limit", "offset"] },
  );

describe("listDeployments (one SQL query)", () => {
  it("answers exactly what the Prisma query it replaced answers", async () => {
    await fc.assert(
      fc.asyncProperty(queryArb(), async (query) => {
        const actor = tenant.actors.viewer;
        expect(await listDeployments(testDb(), actor, query)).toEqual(await reference(query));
      }),
      { numRuns: 150 },
    );
  });

  it("pages through the whole workspace newest first, ties broken by id", async () => {
    const seen: string[] = [];
    for (let offset = 0; ;) {
      const page = await listDeployments(testDb(), tenant.actors.viewer, { limit: 7, offset });
      seen.push(...page.resources.map((r) => r.id));
      if (page.resources.length < 7) break;
      offset = page.offset;
    }
    expect(seen).toEqual((await reference({ limit: 100, offset: 0 })).resources.map((r) => r.id));
    expect(new Set(seen).size).toBe(ids.length);
  });

  it("returns secret names (never values), references and tags beside each row", async () => {
    const page = await listDeployments(testDb(), tenant.actors.viewer, { limit: 100, offset: 0 });
    const withAll = page.resources.find(
      (r) => r.secrets.length && r.secret_references?.length && r.tag_value_ids.length,
    );
    expect(withAll).toBeDefined();
    expect(withAll!.secrets.map((s) => s.value)).toEqual(
      withAll!.secrets.map(() => SECRET_PLACEHOLDER),
    );
    expect(withAll!.secret_references!.map((r) => r.name)).toEqual(["REF_1", "REF_2"]);
  });
});
