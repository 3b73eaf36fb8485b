import { Prisma } from "@/generated/prisma/client";
import type { DbClient } from "@/server/db";

// The RunStore's one row delete (run-store.ts holds the interface): a project's runs, at a
// user's explicit request (project-delete.ts). Retention drops whole partitions instead.

/** What a deleted run leaves in the storage backend. */
export interface DeletedRun {
  id: string;
  attachments: unknown;
  inputs_ref: unknown;
  outputs_ref: unknown;
}

/**
 * Deletes at most `batch` runs of a project, in one statement (its own transaction when `db` is
 * not one): a huge project never holds one giant transaction. Answers the deleted runs' ids and
 * attachments (their objects are the caller's to delete).
 */
export async function deleteProjectRuns(
  db: DbClient,
  workspaceId: string,
  projectId: string,
  batch: number,
): Promise<DeletedRun[]> {
  return db.$queryRaw<DeletedRun[]>(
    Prisma.sql`DELETE FROM "tracing_runs" WHERE (id, sort_time) IN (
        SELECT id, sort_time FROM "tracing_runs"
         WHERE workspace_id = ${workspaceId}::uuid AND project_id = ${projectId}::uuid
         LIMIT ${batch})
      RETURNING id::text AS id, attachments, inputs_ref, outputs_ref`,
  );
}
