import type { Workspace as WorkspaceRow } from "@/generated/prisma/client";
import type { Actor } from "@/server/auth/actor";
import type { Db, DbClient } from "@/server/db";
import { forbidden, notFound } from "@/server/errors";
import type { CreateWorkspaceInput, MyWorkspace, Workspace } from "@/schemas/workspaces";
import { recordAudit } from "./audit/record";

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  organization_id: row.organizationId,
  name: row.name,
  created_at: row.createdAt.toISOString(),
});

/** The workspaces a signed-in user may switch to; an API key or the operator sees only its own. */
export async function listMyWorkspaces(db: DbClient, actor: Actor): Promise<MyWorkspace[]> {
  const withOrganization = { organization: { select: { name: true } } } as const;
  if (actor.kind !== "user" || !actor.userId) {
    const row = await db.workspace.findUniqueOrThrow({
      where: { id: actor.workspaceId },
      include: withOrganization,
    });
    const organization_name = row.organization.name;
    return [{ ...toWorkspace(row), organization_name, role: actor.role, current: true }];
  }
  const rows = await db.membership.findMany({
    where: { userId: actor.userId },
    include: { workspace: { include: withOrganization } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => ({
    ...toWorkspace(row.workspace),
    organization_name: row.workspace.organization.name,
    role: row.role,
    current: row.workspaceId === actor.workspaceId,
  }));
}

/**
 * Any admin of a workspace may add another workspace to its organization and becomes its admin.
 * The operator (no user, no current workspace) passes an actor without a workspace.
 */
export async function createWorkspace(
  db: Db,
  actor: Omit<Actor, "workspaceId">,
  input: CreateWorkspaceInput,
): Promise<Workspace> {
  if (actor.role !== "admin")
    throw forbidden(`This action needs the admin role; you have ${actor.role}.`);
  return db.$transaction(async (tx) => {
    const row = await tx.workspace.create({
      data: { organizationId: actor.organizationId, name: input.name },
    });
    if (actor.kind === "user" && actor.userId) {
      await tx.membership.create({
        data: { userId: actor.userId, workspaceId: row.id, role: "admin" },
      });
    }
    // Recorded in the new workspace, so its audit log starts with its creation.
    await recordAudit(
      tx,
      { ...actor, workspaceId: row.id },
      {
        action: "workspace.create",
        targetType: "workspace",
        targetId: row.id,
        data: { name: row.name },
      },
    );
    return toWorkspace(row);
  });
}

export async function getWorkspace(db: Db, id: string): Promise<Workspace> {
  const row = await db.workspace.findUnique({ where: { id } });
  if (!row) throw notFound(`Workspace ${id} not found.`);
  return toWorkspace(row);
}

/** Operator only: every workspace, or one organization's. */
export async function listWorkspaces(db: Db, organizationId?: string): Promise<Workspace[]> {
  const rows = await db.workspace.findMany({
    where: organizationId ? { organizationId } : {},
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toWorkspace);
}
