import type { TagKey as TagKeyRow, TagValue as TagValueRow } from "@/generated/prisma/client";
import { requireRole, type Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { badRequest, conflict, isUniqueViolation, notFound } from "@/server/errors";
import type { TagKey, TagKeyWithValues, TagValue } from "@/schemas/tags";
import { recordAudit } from "./audit/record";

const toTagKey = (row: TagKeyRow): TagKey => ({
  id: row.id,
  key: row.key,
  created_at: row.createdAt.toISOString(),
});
const toTagValue = (row: TagValueRow): TagValue => ({
  id: row.id,
  tag_key_id: row.tagKeyId,
  value: row.value,
  created_at: row.createdAt.toISOString(),
});

export async function listTagKeys(db: Db, actor: Actor): Promise<TagKey[]> {
  const rows = await db.tagKey.findMany({
    where: { workspaceId: actor.workspaceId },
    orderBy: { key: "asc" },
  });
  return rows.map(toTagKey);
}

/** Every key of the workspace with its values, keys and values in order: one query. */
export async function listTagKeysWithValues(db: Db, actor: Actor): Promise<TagKeyWithValues[]> {
  const rows = await db.tagKey.findMany({
    where: { workspaceId: actor.workspaceId },
    orderBy: { key: "asc" },
    include: { values: { orderBy: { value: "asc" } } },
  });
  return rows.map((row) => ({ ...toTagKey(row), values: row.values.map(toTagValue) }));
}

async function findTagKey(db: Db, actor: Actor, tagKeyId: string): Promise<TagKeyRow> {
  const row = await db.tagKey.findFirst({
    where: { id: tagKeyId, workspaceId: actor.workspaceId },
  });
  if (!row) throw notFound(`Tag key ${tagKeyId} not found.`);
  return row;
}

export async function createTagKey(db: Db, actor: Actor, input: { key: string }): Promise<TagKey> {
  requireRole(actor, "editor");
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.tagKey.create({
        data: { workspaceId: actor.workspaceId, key: input.key },
      });
      await recordAudit(tx, actor, {
        action: "tag_key.create",
        targetType: "tag_key",
        targetId: row.id,
        data: { key: row.key },
      });
      return toTagKey(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Tag key "${input.key}" already exists.`);
    throw error;
  }
}

export async function deleteTagKey(db: Db, actor: Actor, tagKeyId: string): Promise<void> {
  requireRole(actor, "editor");
  const row = await findTagKey(db, actor, tagKeyId);
  await db.$transaction(async (tx) => {
    await tx.tagKey.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "tag_key.delete",
      targetType: "tag_key",
      targetId: row.id,
      data: { key: row.key },
    });
  });
}

/** A new name for a key; deployments keep their values (they refer to ids). */
export async function renameTagKey(
  db: Db,
  actor: Actor,
  tagKeyId: string,
  input: { key: string },
): Promise<TagKey> {
  requireRole(actor, "editor");
  const before = await findTagKey(db, actor, tagKeyId);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.tagKey.update({ where: { id: before.id }, data: { key: input.key } });
      await recordAudit(tx, actor, {
        action: "tag_key.rename",
        targetType: "tag_key",
        targetId: row.id,
        data: { from: before.key, to: row.key },
      });
      return toTagKey(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Tag key "${input.key}" already exists.`);
    throw error;
  }
}

export async function listTagValues(db: Db, actor: Actor, tagKeyId: string): Promise<TagValue[]> {
  const key = await findTagKey(db, actor, tagKeyId);
  const rows = await db.tagValue.findMany({
    where: { tagKeyId: key.id },
    orderBy: { value: "asc" },
  });
  return rows.map(toTagValue);
}

export async function createTagValue(
  db: Db,
  actor: Actor,
  tagKeyId: string,
  input: { value: string },
): Promise<TagValue> {
  requireRole(actor, "editor");
  const key = await findTagKey(db, actor, tagKeyId);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.tagValue.create({ data: { tagKeyId: key.id, value: input.value } });
      await recordAudit(tx, actor, {
        action: "tag_value.create",
        targetType: "tag_value",
        targetId: row.id,
        data: { key: key.key, value: row.value },
      });
      return toTagValue(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`Tag value "${input.value}" already exists for key "${key.key}".`);
    throw error;
  }
}

export async function deleteTagValue(
  db: Db,
  actor: Actor,
  tagKeyId: string,
  tagValueId: string,
): Promise<void> {
  requireRole(actor, "editor");
  const key = await findTagKey(db, actor, tagKeyId);
  const row = await db.tagValue.findFirst({ where: { id: tagValueId, tagKeyId: key.id } });
  if (!row) throw notFound(`Tag value ${tagValueId} not found.`);
  await db.$transaction(async (tx) => {
    await tx.tagValue.delete({ where: { id: row.id } });
    await recordAudit(tx, actor, {
      action: "tag_value.delete",
      targetType: "tag_value",
      targetId: row.id,
      data: { key: key.key, value: row.value },
    });
  });
}

export async function renameTagValue(
  db: Db,
  actor: Actor,
  tagKeyId: string,
  tagValueId: string,
  input: { value: string },
): Promise<TagValue> {
  requireRole(actor, "editor");
  const key = await findTagKey(db, actor, tagKeyId);
  const before = await db.tagValue.findFirst({ where: { id: tagValueId, tagKeyId: key.id } });
  if (!before) throw notFound(`Tag value ${tagValueId} not found.`);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.tagValue.update({
        where: { id: before.id },
        data: { value: input.value },
      });
      await recordAudit(tx, actor, {
        action: "tag_value.rename",
        targetType: "tag_value",
        targetId: row.id,
        data: { key: key.key, from: before.value, to: row.value },
      });
      return toTagValue(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`Tag value "${input.value}" already exists for key "${key.key}".`);
    throw error;
  }
}

/**
 * Checks that tag value ids belong to this workspace with at most one value per key, and
 * returns the rows to attach (the key id is stored to enforce that rule in the database too).
 */
export async function resolveTagValues(
  db: Pick<Db, "tagValue">,
  actor: Actor,
  ids: string[],
): Promise<{ tagValueId: string; tagKeyId: string }[]> {
  const unique = [...new Set(ids)];
  const rows = await db.tagValue.findMany({
    where: { id: { in: unique }, tagKey: { workspaceId: actor.workspaceId } },
    select: { id: true, tagKeyId: true },
  });
  const missing = unique.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw notFound(`Tag value ${missing[0]} not found.`);
  const keys = rows.map((r) => r.tagKeyId);
  if (new Set(keys).size !== keys.length) {
    throw badRequest("A deployment carries at most one value per tag key.");
  }
  return rows.map((r) => ({ tagValueId: r.id, tagKeyId: r.tagKeyId }));
}
