import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import type { AuditEvent, ListAuditEventsInput } from "@/schemas/audit";
import type { Page } from "@/schemas/common";

/** Any member reads the workspace's audit log, newest first. */
export async function listAuditEvents(
  db: Db,
  actor: Actor,
  input: ListAuditEventsInput,
): Promise<Page<AuditEvent>> {
  const rows = await db.auditEvent.findMany({
    where: { workspaceId: actor.workspaceId, ...(input.action ? { action: input.action } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: input.offset,
    take: input.limit,
  });
  const userIds = unique(rows.map((r) => r.actorUserId));
  const keyIds = unique(rows.map((r) => r.actorApiKeyId));
  const [users, keys] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, prefix: true } }),
  ]);
  const emails = new Map(users.map((u) => [u.id, u.email]));
  const prefixes = new Map(keys.map((k) => [k.id, k.prefix]));
  return {
    resources: rows.map((row) => ({
      id: row.id,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      actor_user_id: row.actorUserId,
      actor_email: row.actorUserId ? (emails.get(row.actorUserId) ?? null) : null,
      actor_api_key_id: row.actorApiKeyId,
      actor_api_key_prefix: row.actorApiKeyId ? (prefixes.get(row.actorApiKeyId) ?? null) : null,
      data: row.data,
      request_id: row.requestId,
      created_at: row.createdAt.toISOString(),
    })),
    offset: input.offset + rows.length,
  };
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => !!id))];
