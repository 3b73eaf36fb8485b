import { describe, expect, it } from "vitest";
import { createTenant, testDb, type Tenant } from "../helpers/fixtures";
import { signInAs } from "../helpers/sign-in";
import { trpcMutation, trpcQuery } from "../helpers/trpc-http";

// Issue 28, finding 3: an organization keeps an admin or owner, as a workspace keeps an admin.
// Only someone with a workspace in the organization can act in it, so leaving its last
// workspace counts as losing the organization role.

const KEEP_AN_ADMIN =
  "An organization needs at least one admin or owner: make another member organization admin first.";

const orgRoleOf = async (t: Tenant, userId: string) =>
  (
    await testDb().organizationMember.findUnique({
      where: { organizationId_userId: { organizationId: t.organizationId, userId } },
    })
  )?.role ?? "member";

/** The fixture's admin (the only organization admin) and its editor made a workspace admin. */
async function organization() {
  const t = await createTenant();
  const admin = await signInAs(t.userIds.admin);
  await trpcMutation("members.changeRole", admin, { userId: t.userIds.editor, role: "admin" });
  return { t, admin, other: await signInAs(t.userIds.editor) };
}

describe("an organization keeps an admin", () => {
  it("the last organization admin can neither demote nor be removed; the message says what to do", async () => {
    const { t, admin, other } = await organization();
    const demote = await trpcMutation("members.setOrgRole", admin, {
      userId: t.userIds.admin,
      role: "member",
    });
    expect(demote.status).toBe(400);
    expect(demote.error).toMatchObject({ code: "BAD_REQUEST", message: KEEP_AN_ADMIN });
    // Their only workspace in the organization: removing them would leave it no admin.
    const remove = await trpcMutation("members.remove", other, { userId: t.userIds.admin });
    expect(remove.error).toMatchObject({ code: "BAD_REQUEST", message: KEEP_AN_ADMIN });
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("admin");

    // With a second organization admin, both are allowed; the admin's key loses admin with them.
    const promoted = await trpcMutation("members.setOrgRole", admin, {
      userId: t.userIds.editor,
      role: "admin",
    });
    expect(promoted.data).toMatchObject({ org_role: "admin", api_keys_narrowed: 0 });
    const stepDown = await trpcMutation("members.setOrgRole", admin, {
      userId: t.userIds.admin,
      role: "member",
    });
    expect(stepDown.data).toMatchObject({ org_role: "member", api_keys_narrowed: 1 });
    const last = await trpcMutation("members.setOrgRole", other, {
      userId: t.userIds.editor,
      role: "member",
    });
    expect(last.error).toMatchObject({ code: "BAD_REQUEST", message: KEEP_AN_ADMIN });
  });

  it("a removal matters to the organization only when it takes the member's last workspace there", async () => {
    const { t, admin, other } = await organization();
    // The admin joins the organization's second workspace too (its admin adds them).
    const secondAdmin = await signInAs(t.userIds.workspaceAdmin);
    const email = (await testDb().user.findUniqueOrThrow({ where: { id: t.userIds.admin } })).email;
    const added = await trpcMutation("members.add", secondAdmin, { email, role: "viewer" });
    expect(added.status, JSON.stringify(added.error)).toBe(200);

    const removed = await trpcMutation("members.remove", other, { userId: t.userIds.admin });
    expect(removed.data).toEqual({ user_id: t.userIds.admin, api_keys_revoked: 1 });
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("admin");
    const lastOne = await trpcMutation("members.remove", secondAdmin, {
      userId: t.userIds.admin,
    });
    expect(lastOne.error).toMatchObject({ code: "BAD_REQUEST", message: KEEP_AN_ADMIN });

    // Once another admin exists, leaving the last workspace ends the organization role: coming
    // back later does not bring it back. (The admin's old session was in the workspace they left.)
    const adminAgain = await signInAs(t.userIds.admin);
    expect((await trpcQuery("members.list", admin)).status).toBe(401);
    const promoted = await trpcMutation("members.setOrgRole", adminAgain, {
      userId: t.userIds.workspaceAdmin,
      role: "admin",
    });
    expect(promoted.status, JSON.stringify(promoted.error)).toBe(200);
    const gone = await trpcMutation("members.remove", secondAdmin, { userId: t.userIds.admin });
    expect(gone.status, JSON.stringify(gone.error)).toBe(200);
    expect(await orgRoleOf(t, t.userIds.admin)).toBe("member");
    await trpcMutation("members.add", secondAdmin, { email, role: "viewer" });
    const list = await trpcQuery("members.list", secondAdmin);
    expect(list.data.find((m: any) => m.user_id === t.userIds.admin)?.org_role).toBe("member");
  });

  it("keeps one admin when two organization admins demote each other at once", async () => {
    const { t, admin, other } = await organization();
    await trpcMutation("members.setOrgRole", admin, { userId: t.userIds.editor, role: "admin" });
    const results = await Promise.all([
      trpcMutation("members.setOrgRole", admin, { userId: t.userIds.editor, role: "member" }),
      trpcMutation("members.setOrgRole", other, { userId: t.userIds.admin, role: "member" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const admins = await testDb().organizationMember.count({
      where: { organizationId: t.organizationId, role: { in: ["admin", "owner"] } },
    });
    expect(admins).toBe(1);
  });
});
