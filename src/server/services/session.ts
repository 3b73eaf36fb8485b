import type { SessionMe } from "@/schemas/session";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";
import { notFound } from "@/server/errors";

/** The signed-in user, every workspace they belong to, and the one they act in now. */
export async function getSessionMe(db: DbClient, actor: Actor): Promise<SessionMe> {
  if (!actor.userId) throw notFound("No signed-in user.");
  const user = await db.user.findUnique({
    where: { id: actor.userId },
    include: {
      memberships: {
        include: { workspace: { include: { organization: { select: { name: true } } } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!user) throw notFound("No signed-in user.");
  return {
    user: { id: user.id, email: user.email, name: user.name },
    workspaces: user.memberships.map((m) => ({
      id: m.workspaceId,
      name: m.workspace.name,
      organization_name: m.workspace.organization.name,
      role: m.role,
    })),
    current_workspace_id: actor.workspaceId,
    role: actor.role,
  };
}
