import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { conflict, isUniqueViolation, notFound } from "@/server/errors";
import type {
  CreatedListener,
  CreateListenerInput,
  ListListenersQuery,
  Listener,
  PatchListenerInput,
} from "@/schemas/listeners";
import type { Page } from "@/schemas/common";
import { recordAudit } from "../audit/record";
import { generateListenerToken } from "@/server/auth/listener-tokens";
import { requireSelfHosted, toListener } from "./serialize";

// The five listener routes (contract 14). Anyone in the workspace reads; admins manage, since a
// listener holds a credential that applies the workspace's deployments.

async function findListener(db: Db, actor: Actor, id: string) {
  const row = await db.listener.findFirst({ where: { id, workspaceId: actor.workspaceId } });
  if (!row) throw notFound(`Listener ${id} not found.`);
  return row;
}

export async function listListeners(
  db: Db,
  actor: Actor,
  query: ListListenersQuery,
): Promise<Page<Listener>> {
  requireSelfHosted();
  const rows = await db.listener.findMany({
    where: { workspaceId: actor.workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    skip: query.offset,
  });
  return { resources: rows.map(toListener), offset: query.offset + rows.length };
}

export async function getListener(db: Db, actor: Actor, id: string): Promise<Listener> {
  requireSelfHosted();
  return toListener(await findListener(db, actor, id));
}

export async function createListener(
  db: Db,
  actor: Actor,
  input: CreateListenerInput,
): Promise<CreatedListener> {
  requireSelfHosted();
  requireRole(actor, "admin");
  const { token, prefix, hash } = generateListenerToken();
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.listener.create({
        data: {
          workspaceId: actor.workspaceId,
          computeType: input.compute_type,
          computeId: input.compute_id,
          computeConfig: input.compute_config,
          version: input.version ?? null,
          tokenPrefix: prefix,
          tokenHash: hash,
        },
      });
      await recordAudit(tx, actor, {
        action: "listener.create",
        targetType: "listener",
        targetId: row.id,
        data: { compute_id: row.computeId, prefix },
      });
      return { ...toListener(row), token };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`A listener with compute_id "${input.compute_id}" already exists.`);
    throw error;
  }
}

export async function patchListener(
  db: Db,
  actor: Actor,
  id: string,
  input: PatchListenerInput,
): Promise<Listener> {
  requireSelfHosted();
  requireRole(actor, "admin");
  const row = await findListener(db, actor, id);
  const data = {
    ...(input.version !== undefined ? { version: input.version } : {}),
    ...(input.compute_config ? { computeConfig: input.compute_config } : {}),
  };
  if (Object.keys(data).length === 0) return toListener(row);
  return db.$transaction(async (tx) => {
    const updated = await tx.listener.update({ where: { id: row.id }, data });
    await recordAudit(tx, actor, {
      action: "listener.update",
      targetType: "listener",
      targetId: row.id,
      data: { fields: Object.keys(data) },
    });
    return toListener(updated);
  });
}

export async function deleteListener(db: Db, actor: Actor, id: string): Promise<void> {
  requireSelfHosted();
  requireRole(actor, "admin");
  const row = await findListener(db, actor, id);
  await db.$transaction(async (tx) => {
    // Locks the listener, so a deployment created meanwhile waits and then sees it gone.
    await tx.$queryRaw`SELECT id FROM listeners WHERE id = ${row.id}::uuid FOR UPDATE`;
    const used = await tx.deployment.count({ where: { listenerId: row.id } });
    if (used > 0)
      throw conflict(
        `Listener ${row.id} is used by ${used} deployment${used === 1 ? "" : "s"}; delete or reassign them first.`,
      );
    await tx.listener.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "listener.delete",
      targetType: "listener",
      targetId: row.id,
      data: { compute_id: row.computeId },
    });
  });
}

/** A deployment's listener must be one of the workspace's (inside its create transaction). */
export async function lockWorkspaceListener(
  tx: Pick<Db, "$queryRaw">,
  actor: Actor,
  listenerId: string,
): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM listeners
    WHERE id = ${listenerId}::uuid AND workspace_id = ${actor.workspaceId}::uuid
    FOR SHARE`;
  if (!rows.length) throw notFound(`Listener ${listenerId} not found.`);
}
