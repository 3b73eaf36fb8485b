import type { OrgRole, Role } from "@/generated/prisma/enums";
import { lowerRole, type Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { recordAudit } from "./audit/record";

// When a member's access shrinks, the personal keys they made shrink with it, in the same
// transaction, each audited in its own workspace (contract section 2). Authentication applies
// the maker's current roles anyway; this keeps what the key list says true.

const roles: Role[] = ["admin", "editor", "viewer"];
const liveKeysOf = (userId: string) =>
  ({ kind: "personal", createdById: userId, revokedAt: null }) as const;
const keyFields = { id: true, name: true, prefix: true, workspaceId: true, role: true } as const;

/** Narrows the member's keys in the actor's workspace to `role`; returns how many it changed. */
export async function narrowKeysToRole(
  tx: DbClient,
  actor: Actor,
  userId: string,
  role: Role,
): Promise<number> {
  const rows = await tx.apiKey.findMany({
    where: {
      ...liveKeysOf(userId),
      workspaceId: actor.workspaceId,
      role: { in: roles.filter((r) => lowerRole(r, role) !== r) },
    },
    select: keyFields,
    orderBy: { id: "asc" },
  });
  for (const row of rows) {
    await tx.apiKey.update({ where: { id: row.id }, data: { role } });
    await recordAudit(tx, actor, {
      action: "api_key.narrow",
      targetType: "api_key",
      targetId: row.id,
      data: { name: row.name, prefix: row.prefix, role: { from: row.role, to: role } },
    });
  }
  return rows.length;
}

/**
 * Narrows the member's keys in every workspace of the organization to `orgRole` (a key is an
 * organization admin or member, so only a member's keys change); returns how many it changed.
 */
export async function narrowKeysToOrgRole(
  tx: DbClient,
  actor: Actor,
  userId: string,
  orgRole: OrgRole,
): Promise<number> {
  if (orgRole !== "member") return 0;
  const rows = await tx.apiKey.findMany({
    where: {
      ...liveKeysOf(userId),
      organizationId: actor.organizationId,
      orgRole: { not: "member" },
    },
    select: { ...keyFields, orgRole: true },
    orderBy: { id: "asc" },
  });
  for (const row of rows) {
    await tx.apiKey.update({ where: { id: row.id }, data: { orgRole } });
    await recordAudit(
      tx,
      { ...actor, workspaceId: row.workspaceId },
      {
        action: "api_key.narrow",
        targetType: "api_key",
        targetId: row.id,
        data: { name: row.name, prefix: row.prefix, org_role: { from: row.orgRole, to: orgRole } },
      },
    );
  }
  return rows.length;
}

/** Revokes the member's keys in the actor's workspace; returns how many it revoked. */
export async function revokeKeysOf(tx: DbClient, actor: Actor, userId: string): Promise<number> {
  const rows = await tx.apiKey.findMany({
    where: { ...liveKeysOf(userId), workspaceId: actor.workspaceId },
    select: keyFields,
    orderBy: { id: "asc" },
  });
  const revokedAt = new Date();
  for (const row of rows) {
    await tx.apiKey.update({ where: { id: row.id }, data: { revokedAt } });
    await recordAudit(tx, actor, {
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: row.id,
      data: { name: row.name, prefix: row.prefix, because: "member.remove" },
    });
  }
  return rows.length;
}
