import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

describe("REST /v2/tag-keys", () => {
  it("creates keys and values, lists them, and deletes them", async () => {
    const key = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      body: { key: "team" },
    });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ key: "team" });
    expect(key.headers.get("x-request-id")).toBeTruthy();

    const value = await api(`/v2/tag-keys/${key.body.id}/values`, {
      key: tenant.keys.editor,
      method: "POST",
      body: { value: "payments" },
    });
    expect(value.status).toBe(201);
    expect(value.body).toMatchObject({ tag_key_id: key.body.id, value: "payments" });

    const values = await api(`/v2/tag-keys/${key.body.id}/values`, { key: tenant.keys.viewer });
    expect(values.body.map((v: { value: string }) => v.value)).toEqual(["payments"]);

    const list = await api("/v2/tag-keys", { key: tenant.keys.viewer });
    expect(list.status).toBe(200);
    expect(list.body.map((k: { key: string }) => k.key)).toContain("team");

    expect(
      (
        await api(`/v2/tag-keys/${key.body.id}/values/${value.body.id}`, {
          key: tenant.keys.editor,
          method: "DELETE",
        })
      ).status,
    ).toBe(204);
    expect(
      (await api(`/v2/tag-keys/${key.body.id}`, { key: tenant.keys.editor, method: "DELETE" }))
        .status,
    ).toBe(204);
    expect(
      (await api(`/v2/tag-keys/${key.body.id}/values`, { key: tenant.keys.viewer })).status,
    ).toBe(404);
  });

  it("records every mutation in the audit log", async () => {
    const key = await api("/v2/tag-keys", {
      key: tenant.keys.admin,
      method: "POST",
      body: { key: "audited" },
    });
    const events = await testDb().auditEvent.findMany({ where: { targetId: key.body.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: "tag_key.create", workspaceId: tenant.workspaceId });
  });

  it("refuses duplicates with 409 and bad input with 422", async () => {
    await api("/v2/tag-keys", { key: tenant.keys.editor, method: "POST", body: { key: "env" } });
    const dup = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      body: { key: "env" },
    });
    expect(dup.status).toBe(409);
    expect(typeof dup.body.detail).toBe("string");

    const bad = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      body: { key: "" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "key"]);

    const malformed = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].type).toBe("json_invalid");

    const badPath = await api("/v2/tag-keys/not-a-uuid/values", { key: tenant.keys.viewer });
    expect(badPath.status).toBe(422);
    expect(badPath.body.detail[0].loc).toEqual(["path", "tag_key_id"]);
  });

  it("answers 401 without credentials, 403 for viewers, 404 across workspaces", async () => {
    expect((await api("/v2/tag-keys")).status).toBe(401);
    expect((await api("/v2/tag-keys", { key: "hgr_not_a_real_key" })).status).toBe(401);
    const viewer = await api("/v2/tag-keys", {
      key: tenant.keys.viewer,
      method: "POST",
      body: { key: "nope" },
    });
    expect(viewer.status).toBe(403);

    const mine = await api("/v2/tag-keys", {
      key: tenant.keys.editor,
      method: "POST",
      body: { key: "private" },
    });
    expect(
      (await api(`/v2/tag-keys/${mine.body.id}/values`, { key: other.keys.admin })).status,
    ).toBe(404);
    expect(
      (await api(`/v2/tag-keys/${mine.body.id}`, { key: other.keys.admin, method: "DELETE" }))
        .status,
    ).toBe(404);
  });

  it("needs X-Tenant-Id for organization keys", async () => {
    const missing = await api("/v2/tag-keys", { key: tenant.keys.organization });
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toBe("requires workspace specification");
    const ok = await api("/v2/tag-keys", {
      key: tenant.keys.organization,
      headers: { "x-tenant-id": tenant.workspaceId },
    });
    expect(ok.status).toBe(200);
    const foreign = await api("/v2/tag-keys", {
      key: tenant.keys.organization,
      headers: { "x-tenant-id": other.workspaceId },
    });
    expect(foreign.status).toBe(403);
  });
});

describe("tRPC tags", () => {
  it("uses the same service, roles and tenancy", async () => {
    const editor = createCaller({ db: testDb(), requestId: "t1", actor: tenant.actors.editor });
    const created = await editor.tags.createKey({ key: "trpc-key" });
    const value = await editor.tags.createValue({ tagKeyId: created.id, value: "one" });
    expect(await editor.tags.listValues({ tagKeyId: created.id })).toEqual([value]);

    const viewer = createCaller({ db: testDb(), requestId: "t2", actor: tenant.actors.viewer });
    await expect(viewer.tags.createKey({ key: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const stranger = createCaller({ db: testDb(), requestId: "t3", actor: other.actors.admin });
    await expect(stranger.tags.listValues({ tagKeyId: created.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    const anonymous = createCaller({ db: testDb(), requestId: "t4", actor: null });
    await expect(anonymous.tags.listKeys()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("lists every key with its values in one read, in order, inside the workspace only", async () => {
    const admin = createCaller({ db: testDb(), requestId: "t5", actor: other.actors.admin });
    const zone = await admin.tags.createKey({ key: "zone" });
    const team = await admin.tags.createKey({ key: "team" });
    const west = await admin.tags.createValue({ tagKeyId: zone.id, value: "west" });
    const east = await admin.tags.createValue({ tagKeyId: zone.id, value: "east" });
    const groups = await admin.tags.listKeysWithValues();
    expect(groups.map((g) => g.key)).toEqual((await admin.tags.listKeys()).map((k) => k.key));
    expect(groups.find((g) => g.id === zone.id)).toEqual({ ...zone, values: [east, west] });
    expect(groups.find((g) => g.id === team.id)).toEqual({ ...team, values: [] });

    // Another workspace's keys and values never show.
    const viewer = createCaller({ db: testDb(), requestId: "t6", actor: tenant.actors.viewer });
    const theirs = await viewer.tags.listKeysWithValues();
    expect(theirs.some((g) => g.id === zone.id || g.id === team.id)).toBe(false);
    expect(theirs.map((g) => g.key)).toEqual((await viewer.tags.listKeys()).map((k) => k.key));
  });
});
