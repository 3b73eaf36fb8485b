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

/** Records who did what, when. Call inside the mutation's transaction so both land or neither. */
export async function recordAudit(db: DbClient, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      organizationId: actor.organizationId,
      workspaceId: actor.workspaceId,
      actorUserId: actor.userId,
      actorApiKeyId: actor.apiKeyId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      data: entry.data ?? {},
      requestId: actor.requestId ?? null,
    },
  });
}
