import type { Prisma } from "@/generated/prisma/client";
import { requireOrgRole, requireRole, type Actor } from "@/server/auth/actor";
import { generateApiKey } from "@/server/auth/api-keys";
import type { Db, DbClient } from "@/server/db";
import { badRequest, notFound } from "@/server/errors";
import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from "@/schemas/api-keys";
import { recordAudit, type AuditEntry } from "./audit/record";
import { operatorActor, recordOrganizationAudit, type Operator } from "./operator";
import { getOrganization } from "./organizations";

// Admins manage their workspace's keys; organization-scoped keys are the operator's (admin command).
// A personal key is its maker's (api-key-makers.ts follows their roles); a service key has none.

const withCreator = { createdBy: { select: { id: true, email: true } } } as const;
type ApiKeyRow = Prisma.ApiKeyGetPayload<{ include: typeof withCreator }>;
type Audit = (tx: DbClient, entry: AuditEntry) => Promise<void>;

const iso = (d: Date | null) => d?.toISOString() ?? null;
const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  role: row.role,
  org_role: row.orgRole === "member" ? "member" : "admin",
  prefix: row.prefix,
  workspace_id: row.workspaceId,
  created_at: row.createdAt.toISOString(),
  last_used_at: iso(row.lastUsedAt),
  revoked_at: iso(row.revokedAt),
  created_by: row.createdBy,
});

async function insertApiKey(
  db: Db,
  scope: { organizationId: string; workspaceId: string | null; createdById: string | null },
  input: CreateApiKeyInput,
  audit: Audit,
): Promise<CreatedApiKey> {
  const { key, prefix, hash } = generateApiKey();
  return db.$transaction(async (tx) => {
    const row = await tx.apiKey.create({
      data: {
        ...scope,
        name: input.name,
        kind: input.kind,
        role: input.role,
        orgRole: input.org_role ?? "member",
        prefix,
        keyHash: hash,
      },
      include: withCreator,
    });
    await audit(tx, {
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      data: { name: row.name, kind: row.kind, role: row.role, org_role: row.orgRole, prefix },
    });
    return { ...toApiKey(row), key };
  });
}

/** Idempotent: a key already revoked keeps its first revocation time and is not audited twice. */
async function markRevoked(db: Db, row: ApiKeyRow, audit: Audit): Promise<ApiKey> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({
      where: { id: row.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count) {
      await audit(tx, {
        action: "api_key.revoke",
        targetType: "api_key",
        targetId: row.id,
        data: { name: row.name, prefix: row.prefix },
      });
    }
    return toApiKey(
      await tx.apiKey.findUniqueOrThrow({ where: { id: row.id }, include: withCreator }),
    );
  });
}

export async function listApiKeys(db: Db, actor: Actor): Promise<ApiKey[]> {
  requireRole(actor, "admin");
  const rows = await db.apiKey.findMany({
    where: { workspaceId: actor.workspaceId },
    include: withCreator,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toApiKey);
}

/** A key bound to the actor's workspace. The secret is in this answer only. */
export async function createApiKey(
  db: Db,
  actor: Actor,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  requireRole(actor, "admin");
  // Only an organization admin hands out organization admin rights.
  if (input.org_role === "admin") requireOrgRole(actor, "admin");
  const personal = input.kind === "personal";
  if (personal && (actor.kind !== "user" || !actor.userId))
    throw badRequest("A personal key needs a signed-in user to belong to: make a service key.");
  const scope = {
    organizationId: actor.organizationId,
    workspaceId: actor.workspaceId,
    createdById: personal ? actor.userId : null,
  };
  return insertApiKey(db, scope, input, (tx, entry) => recordAudit(tx, actor, entry));
}

/** Revoked keys are refused (401) from the next request on: authentication reads revoked_at. */
export async function revokeApiKey(db: Db, actor: Actor, id: string): Promise<ApiKey> {
  requireRole(actor, "admin");
  const row = await db.apiKey.findFirst({
    where: { id, workspaceId: actor.workspaceId },
    include: withCreator,
  });
  if (!row) throw notFound(`API key ${id} not found.`);
  return markRevoked(db, row, (tx, entry) => recordAudit(tx, actor, entry));
}

/** Operator only: a service key for every workspace of the organization (callers send X-Tenant-Id). */
export async function createOrganizationApiKey(
  db: Db,
  operator: Operator,
  organizationId: string,
  input: Omit<CreateApiKeyInput, "kind">,
): Promise<CreatedApiKey> {
  await getOrganization(db, organizationId);
  const scope = { organizationId, workspaceId: null, createdById: null };
  return insertApiKey(db, scope, { ...input, kind: "service" }, (tx, entry) =>
    recordOrganizationAudit(tx, operator, organizationId, entry),
  );
}

export async function listOrganizationApiKeys(db: Db, organizationId: string): Promise<ApiKey[]> {
  await getOrganization(db, organizationId);
  const rows = await db.apiKey.findMany({
    where: { organizationId, workspaceId: null },
    include: withCreator,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toApiKey);
}

/** Operator only: revokes any key by id, auditing where the key belongs. */
export async function revokeAnyApiKey(db: Db, operator: Operator, id: string): Promise<ApiKey> {
  const row = await db.apiKey.findUnique({ where: { id }, include: withCreator });
  if (!row) throw notFound(`API key ${id} not found.`);
  const { organizationId, workspaceId } = row;
  if (workspaceId)
    return revokeApiKey(db, operatorActor(operator, { organizationId, workspaceId }), id);
  return markRevoked(db, row, (tx, entry) =>
    recordOrganizationAudit(tx, operator, organizationId, entry),
  );
}
