import { randomBytes } from "node:crypto";
import type { DbClient } from "@/server/db";
import { sha256Hex } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { lowerOrgRole, lowerRole, type Actor } from "./actor";
import { findApiKeyByHash, type KeyRecord } from "./api-key-cache";

export const API_KEY_PREFIX = "hgr_";

/** A new key: shown once; only its hash and a short visible prefix are stored. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, prefix: key.slice(0, 12), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

const LAST_USED_RESOLUTION_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a key may do now: a service key its own roles; a personal key at most its maker's current
 * roles, and nothing once the maker has left the key's workspace (contract section 2).
 */
function rolesOf(record: KeyRecord): Pick<Actor, "role" | "orgRole"> | null {
  if (record.kind === "service") return { role: record.role, orgRole: record.orgRole };
  if (!record.maker) return null;
  return {
    role: lowerRole(record.role, record.maker.role),
    orgRole: lowerOrgRole(record.orgRole, record.maker.orgRole),
  };
}

/**
 * Resolves an X-Api-Key (and X-Tenant-Id for organization keys) to an actor. The lookup is by
 * the key's SHA-256, so no comparison of the secret itself depends on its content. Verified keys
 * are cached briefly; a revocation or a change of the maker's roles still takes effect at once
 * (see api-key-cache.ts).
 */
export async function actorFromApiKey(
  db: DbClient,
  key: string,
  tenantId: string | null,
): Promise<Actor> {
  const record = await findApiKeyByHash(db, hashApiKey(key));
  const roles = record && !record.revokedAt ? rolesOf(record) : null;
  if (!record || !roles) throw new AppError("unauthorized", "Invalid API key");

  let workspaceId = record.workspaceId;
  if (!workspaceId) {
    if (!tenantId) throw new AppError("forbidden", "requires workspace specification");
    const workspace = UUID.test(tenantId)
      ? await db.workspace.findFirst({
          where: { id: tenantId, organizationId: record.organizationId },
        })
      : null;
    if (!workspace)
      throw new AppError("forbidden", "This API key has no access to the workspace in X-Tenant-Id");
    workspaceId = workspace.id;
  } else if (tenantId && tenantId !== workspaceId) {
    throw new AppError("forbidden", "This API key has no access to the workspace in X-Tenant-Id");
  }

  // Best effort, off the request's critical path, and at most once a minute per key: a busy
  // key must not turn every read into a write.
  if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    record.lastUsedAt = new Date(); // the cached record too, so the next request does not write
    db.apiKey
      .update({ where: { id: record.id }, data: { lastUsedAt: record.lastUsedAt } })
      .catch(() => undefined);
  }

  return {
    kind: "api_key",
    userId: record.createdById,
    apiKeyId: record.id,
    organizationId: record.organizationId,
    workspaceId,
    ...roles,
  };
}
