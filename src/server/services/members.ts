import { randomBytes } from "node:crypto";
import type { Prisma } from "@/generated/prisma/client";
import { requireOrgRole, requireRole, type Actor } from "@/server/auth/actor";
import { hashPassword } from "@/server/auth/passwords";
import type { Db, DbClient } from "@/server/db";
import { badRequest, conflict, isUniqueViolation, notFound } from "@/server/errors";
import type {
  AddedMember,
  AddMemberInput,
  ChangeRoleInput,
  Member,
  SetOrgRoleInput,
} from "@/schemas/members";
import { recordAudit } from "./audit/record";

// Any member reads the member list; admins add, re-role and remove. A workspace keeps an admin.

const withUser = {
  user: {
    select: { email: true, name: true, orgRoles: { select: { organizationId: true, role: true } } },
  },
  workspace: { select: { organizationId: true } },
} as const;
type MembershipRow = Prisma.MembershipGetPayload<{ include: typeof withUser }>;

const toMember = (row: MembershipRow): Member => ({
  user_id: row.userId,
  email: row.user.email,
  name: row.user.name,
  role: row.role,
  org_role:
    row.user.orgRoles.find((r) => r.organizationId === row.workspace.organizationId)?.role ??
    "member",
  created_at: row.createdAt.toISOString(),
});

export async function listMembers(db: Db, actor: Actor): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { workspaceId: actor.workspaceId },
    include: withUser,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toMember);
}

/**
 * Sets a workspace member's organization role. Organization admins grant admin and member;
 * only owners grant or take away owner, and an organization keeps its last owner.
 */
export async function setOrganizationRole(
  db: Db,
  actor: Actor,
  input: SetOrgRoleInput,
): Promise<Member> {
  requireOrgRole(actor, "admin");
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${actor.organizationId}::uuid FOR UPDATE`;
    const row = await tx.membership.findUnique({
      where: { userId_workspaceId: { userId: input.userId, workspaceId: actor.workspaceId } },
      include: withUser,
    });
    if (!row) throw notFound(`Member ${input.userId} not found.`);
    const from = toMember(row).org_role;
    if (from === input.role) return toMember(row);
    if (from === "owner" || input.role === "owner") requireOrgRole(actor, "owner");
    if (from === "owner") {
      const owners = await tx.organizationMember.count({
        where: { organizationId: actor.organizationId, role: "owner" },
      });
      if (owners <= 1)
        throw badRequest(
          "An organization keeps at least one owner: make another member owner first.",
        );
    }
    const key = {
      organizationId_userId: { organizationId: actor.organizationId, userId: row.userId },
    };
    if (input.role === "member")
      await tx.organizationMember.deleteMany({ where: key.organizationId_userId });
    else
      await tx.organizationMember.upsert({
        where: key,
        create: { organizationId: actor.organizationId, userId: row.userId, role: input.role },
        update: { role: input.role },
      });
    await recordAudit(tx, actor, {
      action: "member.change_org_role",
      targetType: "user",
      targetId: row.userId,
      data: { email: row.user.email, from, to: input.role },
    });
    return { ...toMember(row), org_role: input.role };
  });
}

/**
 * Adds a user by email. An unknown email gets a new account with the admin's initial password,
 * or a generated one returned once; either is one-time: the new user picks their own at first
 * sign-in. An existing account's password is never touched.
 */
export async function addMember(db: Db, actor: Actor, input: AddMemberInput): Promise<AddedMember> {
  requireRole(actor, "admin");
  const existing = await db.user.findUnique({ where: { email: input.email } });
  const generated = existing || input.password ? undefined : randomBytes(18).toString("base64url");
  const password = input.password ?? generated;
  const passwordHash = !existing && password ? await hashPassword(password) : null;
  try {
    return await db.$transaction(async (tx) => {
      const user =
        existing ??
        (await tx.user.create({
          data: {
            email: input.email,
            name: input.name ?? null,
            passwordHash,
            mustChangePassword: true,
          },
        }));
      const row = await tx.membership.create({
        data: { userId: user.id, workspaceId: actor.workspaceId, role: input.role },
        include: withUser,
      });
      await recordAudit(tx, actor, {
        action: "member.add",
        targetType: "user",
        targetId: user.id,
        data: { email: user.email, role: row.role, created_user: !existing },
      });
      return {
        member: toMember(row),
        created_user: !existing,
        ...(generated ? { initial_password: generated } : {}),
      };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`${input.email} is already a member of this workspace.`);
    throw error;
  }
}

/** Serialises membership changes per workspace, so two admins cannot demote each other at once. */
async function lockedMembership(db: DbClient, actor: Actor, userId: string) {
  await db.$queryRaw`SELECT id FROM workspaces WHERE id = ${actor.workspaceId}::uuid FOR UPDATE`;
  const row = await db.membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId: actor.workspaceId } },
    include: withUser,
  });
  if (!row) throw notFound(`Member ${userId} not found.`);
  return row;
}

async function assertAnotherAdmin(db: DbClient, row: MembershipRow): Promise<void> {
  if (row.role !== "admin") return;
  const admins = await db.membership.count({
    where: { workspaceId: row.workspaceId, role: "admin" },
  });
  if (admins <= 1)
    throw badRequest("A workspace needs at least one admin: make another member admin first.");
}

export async function changeRole(db: Db, actor: Actor, input: ChangeRoleInput): Promise<Member> {
  requireRole(actor, "admin");
  return db.$transaction(async (tx) => {
    const row = await lockedMembership(tx, actor, input.userId);
    if (row.role === input.role) return toMember(row);
    if (input.role !== "admin") await assertAnotherAdmin(tx, row);
    const updated = await tx.membership.update({
      where: { id: row.id },
      data: { role: input.role },
      include: withUser,
    });
    await recordAudit(tx, actor, {
      action: "member.change_role",
      targetType: "user",
      targetId: row.userId,
      data: { email: row.user.email, from: row.role, to: updated.role },
    });
    return toMember(updated);
  });
}

/** The user's API keys stay: keys belong to the workspace, and admins revoke them separately. */
export async function removeMember(db: Db, actor: Actor, userId: string): Promise<void> {
  requireRole(actor, "admin");
  await db.$transaction(async (tx) => {
    const row = await lockedMembership(tx, actor, userId);
    await assertAnotherAdmin(tx, row);
    await tx.membership.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "member.remove",
      targetType: "user",
      targetId: row.userId,
      data: { email: row.user.email, role: row.role },
    });
  });
}
