import type PgBoss from "pg-boss";
import { env } from "@/env";
import type { PreviewCommitStatus } from "@/generated/prisma/client";
import type { Db, DbClient } from "@/server/db";
import type { CommitStatus } from "@/server/integrations/codehost/client";
import { codehostClientFor } from "../codehost-integrations";
import { enqueuePreviewStatus } from "../revisions/queue";

// Commit statuses go out through an outbox (contract 5.6): each is recorded, with the state it
// reports, in the transaction of the move (or refusal) it reports, and a job sends it. Per
// commit and context, `seq` is allocated under a lock held until that transaction commits, so
// seq order is commit order; one poster at a time per commit (another lock, never held by the
// reporting transactions) sends the oldest unsent one, so the code host hears each state once
// and in order, whichever worker runs which job, and however late.

/** Where a status goes: the pull request's head commit in the base repository. */
export interface StatusCommit {
  integrationId: string;
  owner: string;
  repo: string;
  sha: string;
}

const keyOf = (commit: StatusCommit, context: string) =>
  `${commit.integrationId}/${commit.owner}/${commit.repo}/${commit.sha}/${context}`;

/** A transaction-scoped lock of one commit's statuses: `queue` (allocating seq) or `post`. */
const lockCommit = (tx: DbClient, kind: "queue" | "post", key: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`preview-status-${kind}:${key}`}, 0))`;

const sameStatus = (row: PreviewCommitStatus, status: CommitStatus) =>
  row.state === status.state &&
  row.description === status.description &&
  row.targetUrl === status.targetUrl;

/**
 * In the reporting transaction: records the status as the commit's next one and queues the job
 * that sends it. The same status as the commit's last one is not recorded twice.
 */
export async function queueCommitStatus(
  tx: DbClient,
  commit: StatusCommit,
  status: CommitStatus,
  revisionId: string | null,
  boss?: PgBoss,
): Promise<void> {
  const where = { ...commit, context: status.context };
  await lockCommit(tx, "queue", keyOf(commit, status.context));
  const last = await tx.previewCommitStatus.findFirst({ where, orderBy: { seq: "desc" } });
  if (last && sameStatus(last, status)) return;
  const row = await tx.previewCommitStatus.create({
    data: {
      ...where,
      seq: (last?.seq ?? 0) + 1,
      state: status.state,
      description: status.description,
      targetUrl: status.targetUrl,
      revisionId,
    },
  });
  await enqueuePreviewStatus(tx, row.id, { boss });
}

/** What a poster sent: the statuses in the order the code host received them. */
export type PostedStatus = Pick<PreviewCommitStatus, "seq" | "state" | "revisionId">;

/**
 * Sends every unsent status of the commit `statusId` belongs to, oldest first, one transaction
 * each (holding the commit's post lock, so a second poster waits and then finds them sent).
 * Throws when the code host fails: that status stays unsent, and so do the later ones, until
 * the queue's retry (or the commit's next job) sends them in order. A worker that dies after the
 * code host took a status but before its commit sends that one status again, still in order.
 */
export async function postQueuedStatuses(db: Db, statusId: string): Promise<PostedStatus[]> {
  const first = await db.previewCommitStatus.findUnique({
    where: { id: statusId },
    include: { integration: true },
  });
  if (!first) return [];
  const { integration, integrationId, owner, repo, sha, context } = first;
  const client = codehostClientFor(integration);
  const key = keyOf(first, context);
  const posted: PostedStatus[] = [];
  for (;;) {
    const sent = await db.$transaction(
      async (tx) => {
        await lockCommit(tx, "post", key);
        const next = await tx.previewCommitStatus.findFirst({
          where: { integrationId, owner, repo, sha, context, postedAt: null },
          orderBy: { seq: "asc" },
        });
        if (!next) return null;
        await client.createCommitStatus(owner, repo, sha, {
          state: next.state as CommitStatus["state"],
          description: next.description,
          targetUrl: next.targetUrl,
          context,
        });
        await tx.previewCommitStatus.update({
          where: { id: next.id },
          data: { postedAt: new Date() },
        });
        return next;
      },
      // Another poster's send may be under way: wait for it, then send ours.
      { maxWait: 10_000, timeout: 2 * env.HANGAR_CODEHOST_TIMEOUT_MS + 10_000 },
    );
    if (!sent) return posted;
    posted.push({ seq: sent.seq, state: sent.state, revisionId: sent.revisionId });
  }
}

/** The sweep: sent statuses older than `days` are only history. */
export async function forgetSentStatuses(db: Db, days = 7): Promise<number> {
  const { count } = await db.previewCommitStatus.deleteMany({
    where: { postedAt: { lt: new Date(Date.now() - days * 86_400_000) } },
  });
  return count;
}
