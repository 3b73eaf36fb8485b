import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import {
  createDeploymentOverHttp,
  validDeployment,
  withoutEngineFields,
} from "../helpers/deployments";
import { waitForDeploymentGone, waitForRevision } from "../helpers/engine";
import { api } from "../helpers/http";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

const create = (t: Tenant = tenant, overrides = {}) =>
  createDeploymentOverHttp(t.keys.editor, validDeployment("internal_source", overrides));
const get = (id: string, key = tenant.keys.viewer) => api(`/v2/deployments/${id}`, { key });
const del = (id: string, key = tenant.keys.editor) =>
  api(`/v2/deployments/${id}`, { key, method: "DELETE" });
const bulk = (query: string, key = tenant.keys.editor) =>
  api(`/v2/deployments${query}`, { key, method: "DELETE" });
const unknownId = "00000000-0000-4000-8000-00000000beef";

describe("GET /v2/deployments/{id}", () => {
  it("returns the deployment with an ETag", async () => {
    const created = await create();
    // The worker moves the deployment on (status, active revision, runtime): read it once its
    // first revision has ended, so the state compared is one nothing else is changing.
    await waitForRevision(created.latest_revision_id);
    const res = await get(created.id);
    expect(res.status).toBe(200);
    expect(withoutEngineFields(res.body)).toEqual(withoutEngineFields(created));
    expect(res.headers.get("etag")).toMatch(/^W\/".+"$/);
    const again = await get(created.id);
    expect(again.body).toEqual(res.body);
    expect(again.headers.get("etag")).toBe(res.headers.get("etag"));
  });

  it("answers the contract's 404 for unknown ids and other workspaces' deployments", async () => {
    const foreign = await create(other);
    for (const id of [unknownId, foreign.id]) {
      const res = await get(id);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(`Deployment ID ${id} not found.`);
    }
  });

  it("refuses a malformed id with 422 at path.deployment_id, and 401 without a key", async () => {
    const res = await get("not-a-uuid");
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["path", "deployment_id"]);
    expect((await api(`/v2/deployments/${unknownId}`)).status).toBe(401);
  });
});

describe("DELETE /v2/deployments/{id}", () => {
  it("deletes (204): AWAITING_DELETE until torn down, then 404; the name is free again", async () => {
    const created = await create(tenant, {
      secrets: [{ name: "TOKEN", value: "t0ken" }],
    });
    const res = await del(created.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const during = await get(created.id);
    if (during.status === 200) expect(during.body.status).toBe("AWAITING_DELETE");
    else expect(during.status).toBe(404);
    await waitForDeploymentGone(tenant.keys.viewer, created.id);
    expect((await del(created.id)).status).toBe(404);
    const db = testDb();
    expect(await db.revision.count({ where: { deploymentId: created.id } })).toBe(0);
    expect(await db.secret.count({ where: { deploymentId: created.id } })).toBe(0);

    const again = await api("/v2/deployments", {
      key: tenant.keys.editor,
      method: "POST",
      body: validDeployment("internal_container", { name: created.name }),
    });
    expect(again.status).toBe(201);
  });

  it("refuses viewers (403) and hides other workspaces' deployments (404)", async () => {
    const created = await create();
    expect((await del(created.id, tenant.keys.viewer)).status).toBe(403);
    const foreign = await del(created.id, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`Deployment ID ${created.id} not found.`);
    expect((await get(created.id)).status).toBe(200);
    expect((await api(`/v2/deployments/${created.id}`, { method: "DELETE" })).status).toBe(401);
    expect((await del("nope")).status).toBe(422);
  });

  it("is idempotent while deleting: two concurrent deletes both answer 204, one is recorded", async () => {
    const created = await create();
    const statuses = (await Promise.all([del(created.id), del(created.id)])).map((r) => r.status);
    expect(statuses).toEqual([204, 204]);
    const events = await testDb().auditEvent.count({
      where: { targetId: created.id, action: "deployment.delete" },
    });
    expect(events).toBe(1);
    await waitForDeploymentGone(tenant.keys.viewer, created.id);
    expect((await del(created.id)).status).toBe(404);
  });

  it("refuses one of two concurrent creates with the same name (409)", async () => {
    const body = validDeployment("internal_container");
    const statuses = await Promise.all(
      [0, 1].map(async () => {
        const res = await api("/v2/deployments", { key: tenant.keys.editor, method: "POST", body });
        return res.status;
      }),
    );
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it("records one audit event per delete", async () => {
    const created = await create();
    await del(created.id);
    const events = await testDb().auditEvent.findMany({
      where: { targetId: created.id, action: "deployment.delete" },
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspaceId: tenant.workspaceId,
      data: { name: created.name },
    });
  });
});

describe("DELETE /v2/deployments?deployment_ids=", () => {
  it("answers 200 when every id was deleted", async () => {
    const [a, b] = [await create(), await create()];
    const res = await bulk(`?deployment_ids=${a.id},${b.id}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: a.id, status: 204, detail: null },
      { id: b.id, status: 204, detail: null },
    ]);
    await waitForDeploymentGone(tenant.keys.viewer, a.id);
    await waitForDeploymentGone(tenant.keys.viewer, b.id);
  });

  it("answers 207 with each id's outcome when some failed", async () => {
    const mine = await create();
    const foreign = await create(other);
    const res = await bulk(`?deployment_ids=${mine.id},${unknownId},${foreign.id}`);
    expect(res.status).toBe(207);
    expect(res.body.results).toEqual([
      { id: mine.id, status: 204, detail: null },
      { id: unknownId, status: 404, detail: `Deployment ID ${unknownId} not found.` },
      { id: foreign.id, status: 404, detail: `Deployment ID ${foreign.id} not found.` },
    ]);
    await waitForDeploymentGone(tenant.keys.viewer, mine.id);
    expect((await get(foreign.id, other.keys.viewer)).status).toBe(200);
  });

  it.each([
    ["", "missing"],
    ["?deployment_ids=", "empty"],
    ["?deployment_ids=a,b", "not uuids"],
    [`?deployment_ids=${Array(101).fill(unknownId).join(",")}`, "over 100"],
  ])("refuses %s (%s) with 422 at query.deployment_ids", async (query) => {
    const res = await bulk(query);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(["query", "deployment_ids"]);
  });

  it("refuses viewers with 403 and deletes nothing", async () => {
    const created = await create();
    expect((await bulk(`?deployment_ids=${created.id}`, tenant.keys.viewer)).status).toBe(403);
    expect((await get(created.id)).status).toBe(200);
  });
});
