import { inject } from "vitest";
import type { Role } from "../../src/generated/prisma/enums";
import { generateApiKey } from "../../src/server/auth/api-keys";
import type { Actor } from "../../src/server/auth/actor";
import { createDb, type Db } from "../../src/server/db";

let shared: Db | undefined;

/** A Prisma client on the run's throwaway database (the same one the server uses). */
export function testDb(): Db {
  shared ??= createDb(inject("testEnv").DATABASE_URL!, 5);
  return shared;
}

export interface Tenant {
  organizationId: string;
  workspaceId: string;
  keys: Record<Role, string> & { organization: string };
  actors: Record<Role, Actor>;
  userIds: Record<Role, string>;
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
  const roles: Role[] = ["admin", "editor", "viewer"];
  const keys = {} as Tenant["keys"];
  const actors = {} as Tenant["actors"];
  const userIds = {} as Tenant["userIds"];
  for (const role of roles) {
    const user = await db.user.create({
      data: { email: `${role}-${tag}@example.test`, name: `${role} ${tag}` },
    });
    await db.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role } });
    const key = generateApiKey();
    const apiKey = await db.apiKey.create({
      data: {
        organizationId: org.id,
        workspaceId: workspace.id,
        name: `${role} key`,
        role,
        prefix: key.prefix,
        keyHash: key.hash,
        createdById: user.id,
      },
    });
    keys[role] = key.key;
    userIds[role] = user.id;
    actors[role] = {
      kind: "user",
      userId: user.id,
      apiKeyId: apiKey.id,
      organizationId: org.id,
      workspaceId: workspace.id,
      role,
    };
  }
  const orgKey = generateApiKey();
  await db.apiKey.create({
    data: {
      organizationId: org.id,
      workspaceId: null,
      name: "org key",
      role: "admin",
      prefix: orgKey.prefix,
      keyHash: orgKey.hash,
    },
  });
  keys.organization = orgKey.key;
  return { organizationId: org.id, workspaceId: workspace.id, keys, actors, userIds };
}
