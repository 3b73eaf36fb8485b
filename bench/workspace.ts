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
