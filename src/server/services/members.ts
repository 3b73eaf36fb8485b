import { randomBytes } from "node:crypto";
import type { Prisma } from "@/generated/prisma/client";
import { requireOrgRole, requireRole, type Actor } from "@/server/auth/actor";
import { hashPassword } from "@/server/auth/passwords";
import type { Db, DbClient } from "@/server/db";
import { badRequest, conflict, isUniqueViolation, notFound } from "@/server/errors";
import type {
  AddedMember,
  AddMemberInput,
  ChangedMember,
  ChangeRoleInput,
  Member,
  RemovedMember,
  SetOrgRoleInput,
} from "@/schemas/members";
import { narrowKeysToOrgRole, narrowKeysToRole, revokeKeysOf } from "./api-key-makers";
import { recordAudit } from "./audit/record";
import { assertOrganizationKeepsAdmins, lockOrganization } from "./organization-admins";

// Any member reads the member list; admins add, re-role and remove. A workspace keeps an admin,
// an organization an admin or owner; a member's personal API keys follow their roles.

const withUser = (workspaceId: string) =>
  ({
    user: {
      select: {
        email: true,
        name: true,
        orgRoles: { select: { organizationId: true, role: true } },
        _count: {
          select: { apiKeys: { where: { workspaceId, kind: "personal", revokedAt: null } } },
        },
      },
    },
    workspace: { select: { organizationId: true } },
  }) satisfies Prisma.MembershipInclude;
type MembershipRow = Prisma.MembershipGetPayload<{ include: ReturnType<typeof withUser> }>;

/** For an audit event's data: how many of the member's keys the change touched, if any. */
const keysTouched = (what: "narrowed" | "revoked", count: number) =>
  count ? { [`api_keys_${what}`]: count } : {};

const toMember = (row: MembershipRow): Member => ({
  user_id: row.userId,
  email: row.user.email,
  name: row.user.name,
  role: row.role,
  org_role:
    row.user.orgRoles.find((r) => r.organizationId === row.workspace.organizationId)?.role ??
    "member",
  api_keys: row.user._count.apiKeys,
  created_at: row.createdAt.toISOString(),
});

export async function listMembers(db: Db, actor: Actor): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { workspaceId: actor.workspaceId },
    include: withUser(actor.workspaceId),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toMember);
}

/**
 * Sets a workspace member's organization role. Organization admins grant admin and member;
 * only owners grant or take away owner; an organization keeps an owner once it has one, and an
 * admin or owner. The member's personal keys lose organization admin with them.
 */
export async function setOrganizationRole(
  db: Db,
  actor: Actor,
  input: SetOrgRoleInput,
): Promise<ChangedMember> {
  requireOrgRole(actor, "admin");
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, actor.organizationId);
    const row = await tx.membership.findUnique({
      where: { userId_workspaceId: { userId: input.userId, workspaceId: actor.workspaceId } },
      include: withUser(actor.workspaceId),
    });
    if (!row) throw notFound(`Member ${input.userId} not found.`);
    const from = toMember(row).org_role;
    if (from === input.role) return { ...toMember(row), api_keys_narrowed: 0 };
    if (from === "owner" || input.role === "owner") requireOrgRole(actor, "owner");
    await assertOrganizationKeepsAdmins(tx, actor.organizationId, row.userId, from, input.role);
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
    const narrowed = await narrowKeysToOrgRole(tx, actor, row.userId, input.role);
    await recordAudit(tx, actor, {
      action: "member.change_org_role",
      targetType: "user",
      targetId: row.userId,
      data: { email: row.user.email, from, to: input.role, ...keysTouched("narrowed", narrowed) },
    });
    return { ...toMember(row), org_role: input.role, api_keys_narrowed: narrowed };
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
        include: withUser(actor.workspaceId),
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
    include: withUser(actor.workspaceId),
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

/** A lower role narrows the member's personal keys in this workspace to it. */
export async function changeRole(
  db: Db,
  actor: Actor,
  input: ChangeRoleInput,
): Promise<ChangedMember> {
  requireRole(actor, "admin");
  return db.$transaction(async (tx) => {
    const row = await lockedMembership(tx, actor, input.userId);
    if (row.role === input.role) return { ...toMember(row), api_keys_narrowed: 0 };
    if (input.role !== "admin") await assertAnotherAdmin(tx, row);
    const updated = await tx.membership.update({
      where: { id: row.id },
      data: { role: input.role },
      include: withUser(actor.workspaceId),
    });
    const narrowed = await narrowKeysToRole(tx, actor, row.userId, input.role);
    await recordAudit(tx, actor, {
      action: "member.change_role",
      targetType: "user",
      targetId: row.userId,
      data: {
        email: row.user.email,
        from: row.role,
        to: updated.role,
        ...keysTouched("narrowed", narrowed),
      },
    });
    return { ...toMember(updated), api_keys_narrowed: narrowed };
  });
}

/**
 * Removes the member and revokes the personal keys they made here (service keys stay). Their
 * last workspace in the organization takes their organization role too, unless it is the last.
 */
export async function removeMember(db: Db, actor: Actor, userId: string): Promise<RemovedMember> {
  requireRole(actor, "admin");
  return db.$transaction(async (tx) => {
    const row = await lockedMembership(tx, actor, userId);
    await assertAnotherAdmin(tx, row);
    await lockOrganization(tx, actor.organizationId);
    const orgRole = toMember(row).org_role;
    const elsewhere = await tx.membership.count({
      where: {
        userId,
        workspaceId: { not: row.workspaceId },
        workspace: { organizationId: actor.organizationId },
      },
    });
    const leavesOrganization = elsewhere === 0 && orgRole !== "member";
    if (leavesOrganization) {
      await assertOrganizationKeepsAdmins(tx, actor.organizationId, userId, orgRole, null);
      await tx.organizationMember.deleteMany({
        where: { organizationId: actor.organizationId, userId },
      });
    }
    await tx.membership.delete({ where: { id: row.id } });
    const revoked = await revokeKeysOf(tx, actor, userId);
    await recordAudit(tx, actor, {
      action: "member.remove",
      targetType: "user",
      targetId: row.userId,
      data: {
        email: row.user.email,
        role: row.role,
        ...keysTouched("revoked", revoked),
        ...(leavesOrganization ? { org_role: orgRole } : {}),
      },
    });
    return { user_id: userId, api_keys_revoked: revoked };
  });
}
