import type { DbClient } from "@/server/db";
import type { Actor } from "./actor";

/**
 * A signed-in user acts in their current workspace with the role their membership gives now,
 * so removing a member takes effect on their next request.
 */
export async function actorFromSession(
  db: DbClient,
  session: { userId: string; workspaceId?: string | null; sessionId?: string },
): Promise<Actor | null> {
  const membership = await db.membership.findFirst({
    where: {
      userId: session.userId,
      ...(session.workspaceId ? { workspaceId: session.workspaceId } : {}),
    },
    include: {
      user: { select: { mustChangePassword: true } },
      workspace: {
        select: {
          organizationId: true,
          organization: {
            select: { members: { where: { userId: session.userId }, select: { role: true } } },
          },
        },
      },
    },
    orderBy: { createdAt: "asc" },
  });
  if (!membership) return null;
  return {
    kind: "user",
    userId: session.userId,
    apiKeyId: null,
    organizationId: membership.workspace.organizationId,
    workspaceId: membership.workspaceId,
    role: membership.role,
    orgRole: membership.workspace.organization.members[0]?.role ?? "member",
    ...(session.sessionId ? { sessionId: session.sessionId } : {}),
    ...(membership.user.mustChangePassword ? { mustChangePassword: true } : {}),
  };
}
