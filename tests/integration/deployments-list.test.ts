import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { createDeploymentOverHttp, uniqueName, validDeployment } from "../helpers/deployments";
import { waitForRevision } from "../helpers/engine";
import { api } from "../helpers/http";

let tenant: Tenant;
let other: Tenant;
let prefix: string;
const d: Record<string, { id: string; name: string; latest_revision_id: string }> = {};
const tags: Record<string, string> = {};

/** The ids the list answers for a query string, in order. */
async function ids(query: string, key = tenant.keys.viewer): Promise<string[]> {
  const res = await api(`/v2/deployments?${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.resources.map((r: { id: string }) => r.id);
}
const idsOf = (...names: string[]) => names.map((n) => d[n]!.id);

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
  prefix = uniqueName("ls");
  const db = testDb();
  for (const [k, v] of [
    ["team", "a"],
    ["team", "b"],
    ["env", "prod"],
  ] as const) {
    const key = await db.tagKey.upsert({
      where: { workspaceId_key: { workspaceId: tenant.workspaceId, key: k } },
      create: { workspaceId: tenant.workspaceId, key: k },
      update: {},
    });
    tags[`${k}=${v}`] = (await db.tagValue.create({ data: { tagKeyId: key.id, value: v } })).id;
  }
  const make = async (label: string, source: Parameters<typeof validDeployment>[0], o = {}) => {
    const body = validDeployment(source, { name: `${prefix}-${label}`, ...o });
    d[label] = await createDeploymentOverHttp(tenant.keys.editor, body);
  };
  // Created in this order, so newest first is: echo, delta, gamma, beta, alpha.
  await make("alpha", "internal_container", { image_version: "1.0" });
  await make("beta", "internal_source", {
    image_version: "2.0",
    source_config: { deployment_type: "prod" },
    tag_value_ids: [tags["team=a"]],
  });
  await make("gamma", "internal_template", {
    source_config: { deployment_type: "dev_free" },
    tag_value_ids: [tags["team=a"], tags["env=prod"]],
  });
  await make("delta", "internal_container", { tag_value_ids: [tags["team=b"]] });
  await make("echo", "internal_container", { image_version: "1.0" });
  // The statuses are the test's own: first let the worker finish every first revision (it moves
  // a deployment to READY when one deploys), then set each status the filters expect.
  await Promise.all(Object.values(d).map((x) => waitForRevision(x.latest_revision_id)));
  const statuses = { alpha: "AWAITING_DATABASE", beta: "READY", gamma: "UNUSED" } as const;
  for (const label of ["alpha", "beta", "gamma", "delta", "echo"]) {
    const status = statuses[label as keyof typeof statuses] ?? "AWAITING_DATABASE";
    await db.deployment.update({ where: { id: d[label]!.id }, data: { status } });
  }
  await db.deployment.update({
    where: { id: d.delta!.id },
    data: { listenerId: "00000000-0000-4000-8000-00000000d1d1" },
  });
  d.foreign = await createDeploymentOverHttp(
    other.keys.editor,
    validDeployment("internal_container", { name: `${prefix}-alpha`, image_version: "1.0" }),
  );
});

const all = () => idsOf("echo", "delta", "gamma", "beta", "alpha");

describe("GET /v2/deployments", () => {
  it("lists the workspace's deployments newest first, never another workspace's", async () => {
    const res = await api(`/v2/deployments?name_contains=${prefix}`, { key: tenant.keys.viewer });
    expect(res.status).toBe(200);
    expect(res.body.resources.map((r: { id: string }) => r.id)).toEqual(all());
    expect(res.body.offset).toBe(5);
    expect(await ids("limit=100")).not.toContain(d.foreign!.id);
    expect(await ids(`deployment_ids=${d.foreign!.id}`)).toEqual([]);
  });

  it.each([
    [
      "name_contains (case-insensitive)",
      () => `name_contains=${prefix.toUpperCase()}-AL`,
      ["alpha"],
    ],
    ["name_contains with a LIKE wildcard", () => `name_contains=${prefix}%25a`, []],
    ["name_contains with an underscore", () => `name_contains=${prefix}_alpha`, []],
    ["name_contains with a backslash", () => `name_contains=${prefix}%5C`, []],
    ["status", () => "status=READY", ["beta"]],
    ["status, comma-separated", () => "status=UNUSED,READY", ["gamma", "beta"]],
    [
      "status AWAITING_DATABASE",
      () => `status=AWAITING_DATABASE&name_contains=${prefix}`,
      ["echo", "delta", "alpha"],
    ],
    ["remote_reconciled=true", () => "remote_reconciled=true", ["delta"]],
    [
      "remote_reconciled=false",
      () => `remote_reconciled=false&name_contains=${prefix}`,
      ["echo", "gamma", "beta", "alpha"],
    ],
    ["one tag value", () => `tag_value_ids=${tags["team=a"]}`, ["gamma", "beta"]],
    [
      "all tag values must match",
      () => `tag_value_ids=${tags["team=a"]},${tags["env=prod"]}`,
      ["gamma"],
    ],
    [
      "tag values nobody carries together",
      () => `tag_value_ids=${tags["team=a"]},${tags["team=b"]}`,
      [],
    ],
    ["image_version (exact)", () => "image_version=1.0", ["echo", "alpha"]],
    ["image_version is not a prefix match", () => "image_version=1", []],
    ["deployment_type", () => "deployment_type=prod", ["beta"]],
    [
      "deployment_type dev",
      () => `deployment_type=dev&name_contains=${prefix}`,
      ["echo", "delta", "alpha"],
    ],
    ["deployment_ids", () => `deployment_ids=${d.alpha!.id},${d.gamma!.id}`, ["gamma", "alpha"]],
    ["unknown params are ignored", () => `name_contains=${prefix}-beta&colour=blue`, ["beta"]],
    [
      "filters combined",
      () =>
        `name_contains=${prefix}&image_version=1.0&status=AWAITING_DATABASE&deployment_type=dev&remote_reconciled=false&deployment_ids=${d.alpha!.id},${d.beta!.id}`,
      ["alpha"],
    ],
    [
      "tags with status and type",
      () => `tag_value_ids=${tags["team=a"]}&status=READY,UNUSED&deployment_type=dev_free`,
      ["gamma"],
    ],
  ])("filters by %s", async (_, query, expected) => {
    expect(await ids(query())).toEqual(idsOf(...expected));
  });

  it("pages with limit and offset until a short page", async () => {
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const res = await api(`/v2/deployments?name_contains=${prefix}&limit=2&offset=${offset}`, {
        key: tenant.keys.viewer,
      });
      seen.push(...res.body.resources.map((r: { id: string }) => r.id));
      expect(res.body.offset).toBe(offset + res.body.resources.length);
      offset = res.body.offset;
      if (res.body.resources.length < 2) break;
    }
    expect(seen).toEqual(all());
    expect(await ids(`name_contains=${prefix}&offset=100`)).toEqual([]);
  });

  it("breaks created_at ties by id, descending", async () => {
    const at = new Date("2026-01-01T00:00:00.000Z");
    const db = testDb();
    await db.deployment.updateMany({ where: { id: { in: all() } }, data: { createdAt: at } });
    const sorted = [...all()].sort().reverse();
    expect(await ids(`name_contains=${prefix}`)).toEqual(sorted);
    for (const [i, name] of ["alpha", "beta", "gamma", "delta", "echo"].entries()) {
      const createdAt = new Date(at.getTime() + i);
      await db.deployment.update({ where: { id: d[name]!.id }, data: { createdAt } });
    }
    expect(await ids(`name_contains=${prefix}`)).toEqual(all());
  });

  it("defaults to 20 a page and allows up to 100", async () => {
    const crowd = await createTenant();
    await testDb().deployment.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({
        workspaceId: crowd.workspaceId,
        name: `crowd-${i}`,
        source: "internal_container" as const,
        sourceConfig: {},
        sourceRevisionConfig: { image_uri: "img" },
      })),
    });
    const first = await api("/v2/deployments", { key: crowd.keys.viewer });
    expect(first.body.resources).toHaveLength(20);
    expect(first.body.offset).toBe(20);
    const rest = await api("/v2/deployments?offset=20", { key: crowd.keys.viewer });
    expect(rest.body).toMatchObject({ offset: 23 });
    expect(rest.body.resources).toHaveLength(3);
    expect((await ids("limit=100", crowd.keys.viewer)).length).toBe(23);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=-1", "limit"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["name_contains=a%00b", "name_contains"],
    ["image_version=%00", "image_version"],
    ["status=BOGUS", "status"],
    ["status=READY,nope", "status"],
    ["remote_reconciled=maybe", "remote_reconciled"],
    ["deployment_type=staging", "deployment_type"],
    ["deployment_ids=not-a-uuid", "deployment_ids"],
    ["tag_value_ids=1,2", "tag_value_ids"],
  ])("refuses %s with 422 at query.%s", async (query, param) => {
    const res = await api(`/v2/deployments?${query}`, { key: tenant.keys.viewer });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(["query", param]);
  });

  it("accepts 100 deployment ids and refuses 101", async () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect(await ids(`deployment_ids=${[...many(99), d.alpha!.id].join(",")}`)).toEqual(
      idsOf("alpha"),
    );
    const res = await api(`/v2/deployments?deployment_ids=${many(101).join(",")}`, {
      key: tenant.keys.viewer,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["query", "deployment_ids"]);
  });

  it("answers 401 without a key and works with an org key and X-Tenant-Id", async () => {
    expect((await api("/v2/deployments")).status).toBe(401);
    const res = await api(`/v2/deployments?name_contains=${prefix}`, {
      key: tenant.keys.organization,
      headers: { "x-tenant-id": tenant.workspaceId },
    });
    expect(res.body.resources).toHaveLength(5);
  });
});

describe("GET /v2/templates", () => {
  it("lists the built-in templates to any signed-in role", async () => {
    const res = await api("/v2/templates", { key: tenant.keys.viewer });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const t of res.body) {
      expect(Object.keys(t).sort()).toEqual([
        "description",
        "graph_config_path",
        "id",
        "image_uri",
        "name",
      ]);
    }
    expect(res.body.map((t: { id: string }) => t.id)).toContain("react-agent");
    expect((await api("/v2/templates")).status).toBe(401);
  });
});
