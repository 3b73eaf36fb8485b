import { inject } from "vitest";
import type { OrgRole, Role } from "../../src/generated/prisma/enums";
import { generateApiKey } from "../../src/server/auth/api-keys";
import type { Actor } from "../../src/server/auth/actor";
import { createDb, type Db } from "../../src/server/db";

let shared: Db | undefined;

/** A Prisma client on the run's throwaway database (the same one the server uses). */
export function testDb(): Db {
  shared ??= createDb(inject("testEnv").DATABASE_URL!, 5);
  return shared;
}

/**
 * Per workspace role one user and their personal key; `admin` is also an organization admin.
 * `workspaceAdmin` is the admin of a second workspace of the same organization, and only an
 * organization member. The organization-scoped key is a service key.
 */
type TenantRole = Role | "workspaceAdmin";

export interface Tenant {
  organizationId: string;
  workspaceId: string;
  keys: Record<TenantRole, string> & { organization: string };
  actors: Record<TenantRole, Actor>;
  userIds: Record<TenantRole, string>;
}

let counter = 0;

/**
 * A fresh organization and workspace with one user and one API key per role, plus an
 * organization-scoped admin key. Each test file makes its own, so files never share data.
 */
export async function createTenant(db: Db = testDb(), organizationId?: string): Promise<Tenant> {
  const tag = `${process.pid}-${Date.now().toString(36)}-${counter++}`;
  const org = organizationId
    ? { id: organizationId }
    : await db.organization.create({ data: { name: `org ${tag}` } });
  const workspace = await db.workspace.create({
    data: { organizationId: org.id, name: `ws ${tag}` },
  });
  const secondWorkspace = await db.workspace.create({
    data: { organizationId: org.id, name: `ws2 ${tag}` },
  });
  const roles: TenantRole[] = ["admin", "workspaceAdmin", "editor", "viewer"];
  const keys = {} as Tenant["keys"];
  const actors = {} as Tenant["actors"];
  const userIds = {} as Tenant["userIds"];
  for (const tenantRole of roles) {
    const role: Role = tenantRole === "workspaceAdmin" ? "admin" : tenantRole;
    const orgRole: OrgRole = tenantRole === "admin" ? "admin" : "member";
    const workspaceId = tenantRole === "workspaceAdmin" ? secondWorkspace.id : workspace.id;
    const user = await db.user.create({
      // Lowercase, as the services store emails (sign-in looks them up lowercased).
      data: {
        email: `${tenantRole.toLowerCase()}-${tag}@example.test`,
        name: `${tenantRole} ${tag}`,
      },
    });
    await db.membership.create({ data: { userId: user.id, workspaceId, role } });
    if (orgRole !== "member")
      await db.organizationMember.create({
        data: { organizationId: org.id, userId: user.id, role: orgRole },
      });
    const key = generateApiKey();
    const apiKey = await db.apiKey.create({
      data: {
        organizationId: org.id,
        workspaceId,
        name: `${tenantRole} key`,
        kind: "personal",
        role,
        orgRole,
        prefix: key.prefix,
        keyHash: key.hash,
        createdById: user.id,
      },
    });
    keys[tenantRole] = key.key;
    userIds[tenantRole] = user.id;
    actors[tenantRole] = {
      kind: "user",
      userId: user.id,
      apiKeyId: apiKey.id,
      organizationId: org.id,
      workspaceId,
      role,
      orgRole,
    };
  }
  const orgKey = generateApiKey();
  await db.apiKey.create({
    data: {
      organizationId: org.id,
      workspaceId: null,
      name: "org key",
      kind: "service",
      role: "admin",
      orgRole: "admin",
      prefix: orgKey.prefix,
      keyHash: orgKey.hash,
    },
  });
  keys.organization = orgKey.key;
  return { organizationId: org.id, workspaceId: workspace.id, keys, actors, userIds };
}
