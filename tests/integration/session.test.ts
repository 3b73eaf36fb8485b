import { describe, expect, it } from "vitest";
import { createCaller } from "../../src/server/api/root";
import { createTenant, testDb } from "../helpers/fixtures";

describe("session.me", () => {
  it("returns the user, every workspace they belong to, and the current one with its role", async () => {
    const db = testDb();
    const tenant = await createTenant(db);
    const second = await createTenant(db, tenant.organizationId);
    const userId = tenant.userIds.editor;
    await db.membership.create({
      data: { userId, workspaceId: second.workspaceId, role: "viewer" },
    });
    await createTenant(db, tenant.organizationId); // same organization, not a member: never listed

    const me = await createCaller({
      db,
      requestId: "s1",
      actor: tenant.actors.editor,
    }).session.me();
    expect(me.user.id).toBe(userId);
    expect(me.current_workspace_id).toBe(tenant.workspaceId);
    expect(me.role).toBe("editor");
    expect(me.workspaces.map((w) => [w.id, w.role])).toEqual([
      [tenant.workspaceId, "editor"],
      [second.workspaceId, "viewer"],
    ]);
  });

  it("refuses callers who are not signed in", async () => {
    const caller = createCaller({ db: testDb(), requestId: "s2", actor: null });
    await expect(caller.session.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("is not found for an API key actor (no user)", async () => {
    const tenant = await createTenant();
    const keyActor = {
      ...tenant.actors.admin,
      kind: "api_key" as const,
      userId: null,
      apiKeyId: "k",
    };
    await expect(
      createCaller({ db: testDb(), requestId: "s3", actor: keyActor }).session.me(),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
