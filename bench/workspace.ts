import type { Db } from "../src/server/db";

// A fresh organization and workspace for a benchmark, and an editor acting in it (as an API key
// of that workspace would), so the benchmark calls the services without the HTTP doors.

export async function benchWorkspace(db: Db, name: string) {
  const org = await db.organization.create({ data: { name: `bench ${name}` } });
  const ws = await db.workspace.create({ data: { organizationId: org.id, name } });
  const actor = {
    kind: "api_key" as const,
    userId: null,
    apiKeyId: null,
    organizationId: org.id,
    workspaceId: ws.id,
    role: "editor" as const,
    orgRole: "member" as const,
  };
  return { org, ws, actor };
}

/** A viewer member of the bench workspace and a personal API key of theirs, for HTTP reads. */
export const benchViewerKey = (db: Db, ws: { id: string; organizationId: string }) =>
  benchKey(db, ws, "viewer");

/** A member of the bench workspace with this role and a personal API key of theirs. */
export async function benchKey(
  db: Db,
  ws: { id: string; organizationId: string },
  role: "viewer" | "editor",
) {
  const user = await db.user.create({
    data: { email: `bench-${role}-${ws.id}@example.test`, name: "bench" },
  });
  await db.membership.create({ data: { userId: user.id, workspaceId: ws.id, role } });
  // Imported when called: a benchmark sets its environment before the app's modules load.
  const { generateApiKey } = await import("../src/server/auth/api-keys");
  const key = generateApiKey();
  await db.apiKey.create({
    data: {
      organizationId: ws.organizationId,
      workspaceId: ws.id,
      name: "bench",
      kind: "personal",
      role,
      orgRole: "member",
      prefix: key.prefix,
      keyHash: key.hash,
      createdById: user.id,
    },
  });
  return { "x-api-key": key.key };
}
