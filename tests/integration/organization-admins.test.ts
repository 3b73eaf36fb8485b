import { describe, expect, it } from "vitest";
import { testDb, type Tenant } from "../helpers/fixtures";
import { asUser, tenantWithSecondAdmin } from "../helpers/signed-in-caller";

// Issue 28, finding 3: an organization keeps an admin or owner, as a workspace keeps an admin.
// Only someone with a workspace in the organization can act in it, so leaving its last
// workspace counts as losing the organization role.

const KEEP_AN_ADMIN =
  "An organization needs at least one admin or owner: make another member organization admin first.";
const refusal = { code: "BAD_REQUEST", message: KEEP_AN_ADMIN };

const orgRoleOf = async (t: Tenant, userId: string) =>
  (
    await testDb().organizationMember.findUnique({
      where: { organizationId_userId: { organizationId: t.organizationId, userId } },
    })
  )?.role ?? "member";

describe("an organization keeps an admin", () => {
  it("the last organization admin can neither demote nor be removed; the message says what to do", async () => {
    const t = await tenantWithSecondAdmin();
    const admin = await asUser(t.userIds.admin);
    await expect(
      admin.members.setOrgRole({ userId: t.userIds.admin, role: "member" }),
    ).rejects.toMatchObject(refusal);
    // Their only workspace in the organization: removing them would leave it no admin.
    await expect(
      (await asUser(t.userIds.editor)).members.remove({ userId: t.userIds.admin }),
    ).rejects.toMatchObject(refusal);
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("admin");

    // With a second organization admin both are allowed; the admin's key loses admin with them.
    expect(
      await admin.members.setOrgRole({ userId: t.userIds.editor, role: "admin" }),
    ).toMatchObject({ org_role: "admin", api_keys_narrowed: 0 });
    expect(
      await admin.members.setOrgRole({ userId: t.userIds.admin, role: "member" }),
    ).toMatchObject({ org_role: "member", api_keys_narrowed: 1 });
    await expect(
      (await asUser(t.userIds.editor)).members.setOrgRole({
        userId: t.userIds.editor,
        role: "member",
      }),
    ).rejects.toMatchObject(refusal);
  });

  it("a removal matters to the organization only when it takes the member's last workspace there", async () => {
    const t = await tenantWithSecondAdmin();
    const { email } = await testDb().user.findUniqueOrThrow({ where: { id: t.userIds.admin } });
    // The admin joins the organization's second workspace too (its admin adds them).
    const secondAdmin = await asUser(t.userIds.workspaceAdmin);
    await secondAdmin.members.add({ email, role: "viewer" });

    const removed = await (
      await asUser(t.userIds.editor)
    ).members.remove({
      userId: t.userIds.admin,
    });
    expect(removed).toEqual({ user_id: t.userIds.admin, api_keys_revoked: 1 });
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("admin");
    await expect(secondAdmin.members.remove({ userId: t.userIds.admin })).rejects.toMatchObject(
      refusal,
    );

    // Once another admin exists, leaving the last workspace ends the organization role: coming
    // back later does not bring it back.
    await (
      await asUser(t.userIds.admin)
    ).members.setOrgRole({
      userId: t.userIds.workspaceAdmin,
      role: "admin",
    });
    expect(await secondAdmin.members.remove({ userId: t.userIds.admin })).toEqual({
      user_id: t.userIds.admin,
      api_keys_revoked: 0,
    });
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("member");
    const back = await secondAdmin.members.add({ email, role: "viewer" });
    expect(back.member.org_role).toBe("member");
  });

  it("keeps one admin when two organization admins demote each other at once", async () => {
    const t = await tenantWithSecondAdmin();
    const admin = await asUser(t.userIds.admin);
    await admin.members.setOrgRole({ userId: t.userIds.editor, role: "admin" });
    const other = await asUser(t.userIds.editor);
    const results = await Promise.allSettled([
      admin.members.setOrgRole({ userId: t.userIds.editor, role: "member" }),
      other.members.setOrgRole({ userId: t.userIds.admin, role: "member" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: refusal });
    const admins = await testDb().organizationMember.count({
      where: { organizationId: t.organizationId, role: { in: ["admin", "owner"] } },
    });
    expect(admins).toBe(1);
  });
});
