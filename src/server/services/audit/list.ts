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
    where: {
      workspaceId: actor.workspaceId,
      ...(input.action ? { action: input.action } : {}),
      ...(input.target_id ? { targetId: input.target_id } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: input.offset,
    take: input.limit,
  });
  const userIds = unique(rows.map((r) => r.actorUserId));
  const keyIds = unique(rows.map((r) => r.actorApiKeyId));
  // Targets whose events carry no name: look up the deployments still there.
  const unnamed = unique(
    rows.filter((r) => r.targetType === "deployment" && !nameIn(r.data)).map((r) => r.targetId),
  ).filter((id) => UUID.test(id));
  const [users, keys, deployments] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    db.apiKey.findMany({
      where: { id: { in: keyIds } },
      select: { id: true, prefix: true, name: true },
    }),
    db.deployment.findMany({
      where: { id: { in: unnamed }, workspaceId: actor.workspaceId },
      select: { id: true, name: true },
    }),
  ]);
  const emails = new Map(users.map((u) => [u.id, u.email]));
  const keysById = new Map(keys.map((k) => [k.id, k]));
  const deploymentNames = new Map(deployments.map((d) => [d.id, d.name]));
  return {
    resources: rows.map((row) => ({
      id: row.id,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      actor_user_id: row.actorUserId,
      actor_email: row.actorUserId ? (emails.get(row.actorUserId) ?? null) : null,
      actor_api_key_id: row.actorApiKeyId,
      actor_api_key_prefix: row.actorApiKeyId
        ? (keysById.get(row.actorApiKeyId)?.prefix ?? null)
        : null,
      actor_api_key_name: row.actorApiKeyId
        ? (keysById.get(row.actorApiKeyId)?.name ?? null)
        : null,
      target_name: nameIn(row.data) ?? deploymentNames.get(row.targetId) ?? null,
      data: row.data,
      request_id: row.requestId,
      created_at: row.createdAt.toISOString(),
    })),
    offset: input.offset + rows.length,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The name an event recorded for its target: a name, an email, a tag key or a provider id. */
function nameIn(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  for (const key of ["name", "email", "key", "provider_id"]) {
    if (typeof d[key] === "string") return d[key];
  }
  return null;
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => !!id))];
