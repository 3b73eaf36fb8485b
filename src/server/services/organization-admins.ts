import type { OrgRole } from "@/generated/prisma/enums";
import type { DbClient } from "@/server/db";
import { badRequest } from "@/server/errors";

// An organization keeps someone who can administer it, as a workspace keeps an admin: the
// dashboard cannot make an organization admin without one. Callers hold the organization's row
// lock (lockOrganization), so two admins cannot take each other's role at once.

export const KEEP_AN_OWNER =
  "An organization keeps at least one owner: make another member owner first.";
export const KEEP_AN_ADMIN =
  "An organization needs at least one admin or owner: make another member organization admin first.";

export async function lockOrganization(tx: DbClient, organizationId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
}

/**
 * Refuses to take the last holder of one of `roles` away: only people who still have a
 * workspace in the organization count (nobody else can act in it).
 */
export async function assertAnotherHolds(
  tx: DbClient,
  organizationId: string,
  userId: string,
  roles: OrgRole[],
  message: string,
): Promise<void> {
  const others = await tx.organizationMember.count({
    where: {
      organizationId,
      role: { in: roles },
      userId: { not: userId },
      user: { memberships: { some: { workspace: { organizationId } } } },
    },
  });
  if (others === 0) throw badRequest(message);
}

/** The checks for a user who loses `from` in the organization (a demotion, or leaving it). */
export async function assertOrganizationKeepsAdmins(
  tx: DbClient,
  organizationId: string,
  userId: string,
  from: OrgRole,
  to: OrgRole | null,
): Promise<void> {
  if (from === "owner" && to !== "owner")
    await assertAnotherHolds(tx, organizationId, userId, ["owner"], KEEP_AN_OWNER);
  if (from !== "member" && (to === null || to === "member"))
    await assertAnotherHolds(tx, organizationId, userId, ["owner", "admin"], KEEP_AN_ADMIN);
}
