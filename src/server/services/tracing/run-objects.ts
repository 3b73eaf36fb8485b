import type { Db } from "@/server/db";
import {
  attachmentObjects,
  removeStoredObjects,
  storeAttachments,
  type AttachmentUpload,
} from "./attachments";
import { runStore, type RunRow } from "./run-store";
import { fieldObjects, storeLargeFields } from "./stored-fields";

// What ingest keeps in the storage backend for the runs it writes: large inputs/outputs and
// attachments, stored before the rows that name them, removed again when a write is refused.

/** Stores each row's large fields and attachments; the rows then name their objects. */
export async function storeRunObjects(
  workspaceId: string,
  rows: { op: { attachments?: AttachmentUpload[] }; row: RunRow }[],
): Promise<void> {
  for (const { op, row } of rows) {
    await storeLargeFields(workspaceId, row);
    if (op.attachments?.length)
      row.attachments = await storeAttachments(workspaceId, row.id, row.sort_time, op.attachments);
  }
}

/**
 * The objects a refused write stored. Not when the refused row is the workspace's own (an ingest
 * key's write onto another project's run): that row may name the very same objects.
 */
export async function removeRefusedObjects(db: Db, workspaceId: string, rows: RunRow[]) {
  const withObjects = rows.filter((r) => r.attachments || r.inputs_ref || r.outputs_ref);
  if (withObjects.length === 0) return;
  const mine = await runStore.runTimesById(
    db,
    workspaceId,
    withObjects.map((r) => r.id),
  );
  for (const row of withObjects)
    if (mine.get(row.id) !== row.sort_time)
      await removeStoredObjects([...attachmentObjects(row.attachments), ...fieldObjects(row)]);
}
