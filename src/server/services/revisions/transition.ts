import type { Prisma, RevisionStatus } from "@/generated/prisma/client";
import { harmless } from "@/lib/log-text";
import { canTransition } from "@/schemas/revision-states";
import type { DbClient } from "@/server/db";

/**
 * Moves a revision from one of `from` to `to`, setting `data` in the same UPDATE. Refuses a
 * move the table does not allow (a bug: throws); answers false when the revision is no longer
 * in `from` (another worker or a user moved it first), so the caller stops. The message may
 * quote what a build printed: it is stored harmless (lib/log-text.ts).
 */
export async function transition(
  tx: DbClient,
  revisionId: string,
  from: readonly RevisionStatus[],
  to: RevisionStatus,
  message: string | null = null,
  data: Prisma.RevisionUpdateManyMutationInput = {},
): Promise<boolean> {
  const illegal = from.filter((status) => !canTransition(status, to));
  if (illegal.length) throw new Error(`Illegal revision transition ${illegal.join("|")} -> ${to}`);
  const { count } = await tx.revision.updateMany({
    where: { id: revisionId, status: { in: [...from] } },
    data: { ...data, status: to, statusMessage: message === null ? null : harmless(message) },
  });
  return count === 1;
}
