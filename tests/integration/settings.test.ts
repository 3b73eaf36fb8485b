import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/server/auth/actor";
import { hashApiKey } from "../../src/server/auth/api-keys";
import { verifyPassword } from "../../src/server/auth/passwords";
import { createCaller } from "../../src/server/api/root";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { api } from "../helpers/http";

const REQUEST_ID = "settings-test";
const as = (actor: Actor | null) => createCaller({ db: testDb(), requestId: REQUEST_ID, actor });
const withRequestId = (actor: Actor): Actor => ({ ...actor, requestId: REQUEST_ID });

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant();
  other = await createTenant();
});

describe("tRPC apiKeys", () => {
  it("creates a key that works over REST at once, until it is revoked", async () => {
    const admin = as(tenant.actors.admin);
    const created = await admin.apiKeys.create({ name: "ci", role: "viewer" });
    expect(created.key).toMatch(/^hgr_/);
    expect(created).toMatchObject({
      name: "ci",
      role: "viewer",
      prefix: created.key.slice(0, 12),
      workspace_id: tenant.workspaceId,
      last_used_at: null,
      revoked_at: null,
      created_by: { id: tenant.userIds.admin },
    });

    expect((await api("/v2/tag-keys", { key: created.key })).status).toBe(200);
    const write = await api("/v2/tag-keys", {
      key: created.key,
      method: "POST",
      body: { key: "from-viewer-key" },
    });
    expect(write.status).toBe(403);

    const revoked = await admin.apiKeys.revoke({ id: created.id });
    expect(revoked.revoked_at).not.toBeNull();
    const refused = await api("/v2/tag-keys", { key: created.key });
    expect(refused.status).toBe(401);
    expect(typeof refused.body.detail).toBe("string");

    // Revoking again changes nothing and is not audited twice.
    expect(await admin.apiKeys.revoke({ id: created.id })).toEqual(revoked);
    const events = await testDb().auditEvent.findMany({ where: { targetId: created.id } });
    expect(events.map((e) => e.action).sort()).toEqual(["api_key.create", "api_key.revoke"]);
  });

  it("lists keys newest first, never with the hash or the secret", async () => {
    const admin = as(tenant.actors.admin);
    const created = await admin.apiKeys.create({ name: "listed", role: "editor" });
    await api("/v2/tag-keys", { key: created.key });

    const list = await admin.apiKeys.list();
    expect(list[0]?.id).toBe(created.id);
    expect(list.map((k) => k.name)).toEqual(expect.arrayContaining(["admin key", "viewer key"]));
    const text = JSON.stringify(list);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(hashApiKey(created.key));
    expect(text).not.toContain(tenant.keys.admin);
    for (const key of list) expect(Object.keys(key)).not.toContain("key");
    // The organization-scoped key is the operator's, not the workspace's.
    expect(list.every((k) => k.workspace_id === tenant.workspaceId)).toBe(true);

    // last_used_at is written off the request path: wait for it.
    let used: string | null | undefined = null;
    for (let i = 0; i < 20 && !used; i++) {
      used = (await admin.apiKeys.list()).find((k) => k.id === created.id)?.last_used_at;
      if (!used) await new Promise((r) => setTimeout(r, 100));
    }
    expect(used).toBeTruthy();
  });

  it("is for admins only", async () => {
    for (const role of ["editor", "viewer"] as const) {
      const caller = as(tenant.actors[role]);
      await expect(caller.apiKeys.create({ name: "x", role: "viewer" })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(caller.apiKeys.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const target = await testDb().apiKey.findFirstOrThrow({
      where: { workspaceId: tenant.workspaceId, role: "viewer" },
    });
    await expect(as(tenant.actors.viewer).apiKeys.revoke({ id: target.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(as(null).apiKeys.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("treats another workspace's key, and organization keys, as absent", async () => {
    const mine = await as(tenant.actors.admin).apiKeys.create({ name: "mine", role: "viewer" });
    const stranger = as(other.actors.admin);
    await expect(stranger.apiKeys.revoke({ id: mine.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await stranger.apiKeys.list()).map((k) => k.id)).not.toContain(mine.id);
    expect((await api("/v2/tag-keys", { key: mine.key })).status).toBe(200);

    const orgKey = await testDb().apiKey.findFirstOrThrow({
      where: { organizationId: tenant.organizationId, workspaceId: null },
    });
    await expect(as(tenant.actors.admin).apiKeys.revoke({ id: orgKey.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("rejects bad input", async () => {
    const admin = as(tenant.actors.admin);
    await expect(admin.apiKeys.create({ name: " ", role: "viewer" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      admin.apiKeys.create({ name: "x", role: "owner" as "admin" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(admin.apiKeys.revoke({ id: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("tRPC members", () => {
  let team: Tenant;
  beforeAll(async () => {
    team = await createTenant();
  });

  it("lists members for any member", async () => {
    const list = await as(team.actors.viewer).members.list();
    expect(list.map((m) => m.role)).toEqual(["admin", "editor", "viewer"]);
    expect(list[0]).toMatchObject({ user_id: team.userIds.admin, email: expect.any(String) });
    expect(JSON.stringify(list)).not.toMatch(/password/i);
  });

  it("adds new users with a given or generated password, and existing users untouched", async () => {
    const admin = as(team.actors.admin);
    const given = await admin.members.add({
      email: `  New-${team.workspaceId}@Example.TEST `,
      role: "editor",
      name: "New person",
      password: "a-long-password",
    });
    expect(given).toMatchObject({ created_user: true, member: { role: "editor" } });
    expect(given.member.email).toBe(`new-${team.workspaceId}@example.test`);
    expect(given.initial_password).toBeUndefined();
    const stored = await testDb().user.findUniqueOrThrow({ where: { id: given.member.user_id } });
    expect(stored.passwordHash).not.toContain("a-long-password");
    expect(await verifyPassword(stored.passwordHash!, "a-long-password")).toBe(true);

    const generated = await admin.members.add({
      email: `gen-${team.workspaceId}@x.test`,
      role: "viewer",
    });
    expect(generated.initial_password).toEqual(expect.any(String));
    const genUser = await testDb().user.findUniqueOrThrow({
      where: { id: generated.member.user_id },
    });
    expect(await verifyPassword(genUser.passwordHash!, generated.initial_password!)).toBe(true);

    const outsider = await testDb().user.findUniqueOrThrow({ where: { id: other.userIds.admin } });
    const existing = await admin.members.add({
      email: outsider.email,
      role: "viewer",
      password: "attempted-takeover",
    });
    expect(existing).toMatchObject({ created_user: false, member: { user_id: outsider.id } });
    const after = await testDb().user.findUniqueOrThrow({ where: { id: outsider.id } });
    expect(after.passwordHash).toBe(outsider.passwordHash);

    await expect(admin.members.add({ email: outsider.email, role: "admin" })).rejects.toMatchObject(
      { code: "CONFLICT" },
    );
    await expect(admin.members.add({ email: "not-an-email", role: "admin" })).rejects.toMatchObject(
      { code: "BAD_REQUEST" },
    );
    await expect(
      admin.members.add({ email: "short@x.test", role: "admin", password: "short" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("changes roles and removes members, never the last admin", async () => {
    const admin = as(team.actors.admin);
    await expect(
      admin.members.changeRole({ userId: team.userIds.admin, role: "viewer" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/admin/) });
    await expect(admin.members.remove({ userId: team.userIds.admin })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });

    const promoted = await admin.members.changeRole({ userId: team.userIds.editor, role: "admin" });
    expect(promoted.role).toBe("admin");
    expect(
      await admin.members.changeRole({ userId: team.userIds.admin, role: "editor" }),
    ).toMatchObject({ role: "editor" });

    const newAdmin = as({ ...team.actors.admin, userId: team.userIds.editor });
    await newAdmin.members.remove({ userId: team.userIds.viewer });
    const list = await newAdmin.members.list();
    expect(list.map((m) => m.user_id)).not.toContain(team.userIds.viewer);
    await expect(newAdmin.members.remove({ userId: team.userIds.viewer })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(newAdmin.members.remove({ userId: team.userIds.editor })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("keeps an admin when two admins demote each other at once", async () => {
    const pair = await createTenant();
    await as(pair.actors.admin).members.changeRole({ userId: pair.userIds.editor, role: "admin" });
    const second = as({ ...pair.actors.admin, userId: pair.userIds.editor });
    const results = await Promise.allSettled([
      as(pair.actors.admin).members.changeRole({ userId: pair.userIds.editor, role: "viewer" }),
      second.members.changeRole({ userId: pair.userIds.admin, role: "viewer" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const admins = await testDb().membership.count({
      where: { workspaceId: pair.workspaceId, role: "admin" },
    });
    expect(admins).toBe(1);
  });

  it("is for admins only, and only within the workspace", async () => {
    await expect(
      as(team.actors.editor).members.add({ email: "e@x.test", role: "viewer" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      as(tenant.actors.viewer).members.remove({ userId: tenant.userIds.editor }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stranger = as(other.actors.admin);
    await expect(
      stranger.members.changeRole({ userId: tenant.userIds.editor, role: "viewer" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(stranger.members.remove({ userId: tenant.userIds.editor })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await stranger.members.list()).map((m) => m.user_id)).not.toContain(
      tenant.userIds.editor,
    );
  });
});

describe("tRPC workspaces", () => {
  it("lists the user's workspaces and lets an admin add one to the organization", async () => {
    const org = await createTenant();
    const admin = as(org.actors.admin);
    const before = await admin.workspaces.listMine();
    expect(before).toEqual([
      expect.objectContaining({ id: org.workspaceId, role: "admin", current: true }),
    ]);
    expect(before[0]?.organization_name).toMatch(/^org /);

    const created = await admin.workspaces.create({ name: "Staging" });
    expect(created).toMatchObject({ name: "Staging", organization_id: org.organizationId });
    const after = await admin.workspaces.listMine();
    expect(after.map((w) => [w.id, w.role, w.current])).toEqual([
      [org.workspaceId, "admin", true],
      [created.id, "admin", false],
    ]);

    const inNew = as({ ...org.actors.admin, workspaceId: created.id });
    expect((await inNew.members.list()).map((m) => m.user_id)).toEqual([org.userIds.admin]);
    const log = await inNew.audit.list({});
    expect(log.resources.map((e) => e.action)).toEqual(["workspace.create"]);

    await expect(as(org.actors.editor).workspaces.create({ name: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(admin.workspaces.create({ name: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("tRPC audit", () => {
  it("lists the workspace's mutations newest first, with pagination and a filter", async () => {
    const ws = await createTenant();
    const admin = as(withRequestId(ws.actors.admin));
    const key = await admin.apiKeys.create({ name: "audited", role: "viewer" });
    await admin.members.changeRole({ userId: ws.userIds.viewer, role: "editor" });
    await admin.apiKeys.revoke({ id: key.id });
    const viaKey = await api("/v2/tag-keys", {
      key: ws.keys.editor,
      method: "POST",
      body: { key: "audit" },
    });
    expect(viaKey.status).toBe(201);

    const viewer = as(ws.actors.viewer);
    const first = await viewer.audit.list({ limit: 2 });
    expect(first.resources.map((e) => e.action)).toEqual(["tag_key.create", "api_key.revoke"]);
    expect(first.offset).toBe(2);
    const second = await viewer.audit.list({ limit: 2, offset: first.offset });
    expect(second.resources.map((e) => e.action)).toEqual(["member.change_role", "api_key.create"]);
    expect((await viewer.audit.list({ offset: 4 })).resources).toEqual([]);

    const adminUser = await testDb().user.findUniqueOrThrow({ where: { id: ws.userIds.admin } });
    expect(second.resources[1]).toMatchObject({
      target_type: "api_key",
      target_id: key.id,
      actor_user_id: adminUser.id,
      actor_email: adminUser.email,
      // The fixture's actors carry their key's id as well.
      actor_api_key_id: ws.actors.admin.apiKeyId,
      actor_api_key_prefix: ws.keys.admin.slice(0, 12),
      request_id: REQUEST_ID,
      data: { name: "audited", role: "viewer", prefix: key.prefix },
    });
    const editorKey = await testDb().apiKey.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, role: "editor" },
    });
    expect(first.resources[0]).toMatchObject({
      target_id: viaKey.body.id,
      actor_api_key_id: editorKey.id,
      actor_api_key_prefix: editorKey.prefix,
    });

    const filtered = await viewer.audit.list({ action: "member.change_role" });
    expect(filtered.resources).toHaveLength(1);
    expect(filtered.resources[0]?.data).toEqual({
      email: expect.any(String),
      from: "viewer",
      to: "editor",
    });

    const everything = JSON.stringify((await viewer.audit.list({ limit: 100 })).resources);
    expect(everything).not.toContain(key.key);
    expect(everything).not.toContain(hashApiKey(key.key));

    expect((await as(other.actors.admin).audit.list({ limit: 100 })).resources).not.toContainEqual(
      expect.objectContaining({ target_id: key.id }),
    );
    await expect(viewer.audit.list({ limit: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(as(null).audit.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
