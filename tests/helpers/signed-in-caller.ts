import { createCaller } from "../../src/server/api/root";
import { actorFromSession } from "../../src/server/auth/session-actor";
import { createTenant, testDb, type Tenant } from "./fixtures";

/**
 * The dashboard's tRPC procedures called as a signed-in user now, without a sign-in over HTTP
 * (the proxy allows 30 a minute per address, shared by every test file): the actor comes from
 * the function that turns a session's user into an actor, on the real database.
 */
export async function asUser(userId: string, workspaceId?: string) {
  const db = testDb();
  const actor = await actorFromSession(db, { userId, workspaceId });
  return createCaller({ db, requestId: `test-${userId}`, actor });
}

/** A fresh tenant whose editor is made a second workspace admin (its admin stays the only org admin). */
export async function tenantWithSecondAdmin(): Promise<Tenant> {
  const tenant = await createTenant();
  await (
    await asUser(tenant.userIds.admin)
  ).members.changeRole({
    userId: tenant.userIds.editor,
    role: "admin",
  });
  return tenant;
}
