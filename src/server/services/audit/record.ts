import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/server/auth/actor";
import type { DbClient } from "@/server/db";

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  /** A summary of what changed. Never secret values. */
  data?: Prisma.InputJsonValue;
}

/**
 * Who an audit event is about: an actor, or the system (a signed webhook, the admin command),
 * which has no user or key; organization-level events have no workspace.
 */
export type AuditActor = Pick<Actor, "organizationId"> &
  Partial<Pick<Actor, "userId" | "apiKeyId" | "requestId">> & { workspaceId: string | null };

/** Records who did what, when. Call inside the mutation's transaction so both land or neither. */
export async function recordAudit(
  db: DbClient,
  actor: AuditActor,
  entry: AuditEntry,
): Promise<void> {
  await db.auditEvent.create({
    data: {
      organizationId: actor.organizationId,
      workspaceId: actor.workspaceId,
      actorUserId: actor.userId ?? null,
      actorApiKeyId: actor.apiKeyId ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      data: entry.data ?? {},
      requestId: actor.requestId ?? null,
    },
  });
}
