import type { SessionMe } from "@/schemas/session";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";
import { listMyWorkspaces } from "./workspaces";

/** The signed-in user, every workspace they belong to, and the one they act in now. */
export async function getSessionMe(db: DbClient, actor: Actor): Promise<SessionMe> {
  if (!actor.userId) throw notFound("No signed-in user.");
  const user = await db.user.findUnique({ where: { id: actor.userId } });
  if (!user) throw notFound("No signed-in user.");
  const workspaces = await listMyWorkspaces(db, actor);
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      must_change_password: user.mustChangePassword,
    },
    workspaces: workspaces.map(({ id, name, organization_name, role }) => ({
      id,
      name,
      organization_name,
      role,
    })),
    current_workspace_id: actor.workspaceId,
    role: actor.role,
    org_role: actor.orgRole,
  };
}
